import * as openid from 'openid-client';
import type { OidcConfig } from '../../../config.js';
import { type MemberRole, memberRoles, roleRank } from '../../../core/roles.js';
import { ForbiddenError, ServiceUnavailableError, UnauthorizedError } from '../../../errors.js';
import type { Signer } from '../../../platform/signing.js';

// Single sign-on with any OpenID provider (Keycloak, Entra ID, Okta, Google, Authentik), through the
// certified client library: authorization code with PKCE, `state` and `nonce`. What the provider
// says is trusted only as far as its signed ID token (or its userinfo) says it; the flow's secrets
// ride in a signed, HttpOnly cookie so that any node may take the callback.

/** Who the provider says signed in: a verified address, a name, the roles its claim grants. */
export type ProvidedIdentity = { email: string; name: string; claimedRole: MemberRole | undefined };

/** A started sign-in: where to send the browser, and the cookie value that carries the checks. */
export type StartedSignIn = { url: string; flow: string };

const flowLifetimeMs = 10 * 60_000;
const flowPurpose = 'oidc-flow';

export interface SingleSignOn {
  start(): Promise<StartedSignIn>;
  /** Checks the callback against the flow's cookie; the identity, or 401/403 saying what failed. */
  finish(callbackUrl: URL, flow: string | undefined): Promise<ProvidedIdentity>;
}

type Flow = { state: string; nonce: string; verifier: string };

/** The highest `lectern:<role>` among a claim's values (a string or a list of them). */
function roleFromClaim(value: unknown): MemberRole | undefined {
  const values = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  const roles = values
    .filter((each): each is string => typeof each === 'string' && each.startsWith('lectern:'))
    .map((each) => each.slice('lectern:'.length))
    .filter((role): role is MemberRole => (memberRoles as readonly string[]).includes(role));
  return roles.sort((a, b) => roleRank(b) - roleRank(a))[0];
}

export function createSingleSignOn(settings: OidcConfig, baseUrl: string, signer: Signer): SingleSignOn {
  const redirectUri = `${baseUrl}/console/v1/oidc/callback`;
  let configuration: Promise<openid.Configuration> | undefined;

  /** Discovered once; a provider that did not answer is asked again on the next sign-in. */
  function discovered(): Promise<openid.Configuration> {
    configuration ??= openid
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        undefined,
        // An http:// issuer is accepted only on a loopback address (config.ts refuses any other).
        new URL(settings.issuer).protocol === 'http:'
          ? { execute: [openid.allowInsecureRequests] }
          : undefined,
      )
      .catch((error: unknown) => {
        configuration = undefined;
        throw new ServiceUnavailableError(
          'identity_provider_unavailable',
          `The identity provider did not answer its discovery document: ${(error as Error).message}`,
        );
      });
    return configuration;
  }

  function sealFlow(flow: Flow): string {
    const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
    return `${payload}.${signer.sign(flowPurpose, payload, Date.now() + flowLifetimeMs)}`;
  }

  function openFlow(sealed: string | undefined): Flow {
    const [payload, ...token] = (sealed ?? '').split('.');
    if (!payload || signer.verify(flowPurpose, payload, token.join('.')) !== 'valid')
      throw new UnauthorizedError('The sign-in took too long or did not start here; sign in again');
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Flow;
  }

  return {
    async start() {
      const config = await discovered();
      const flow: Flow = {
        state: openid.randomState(),
        nonce: openid.randomNonce(),
        verifier: openid.randomPKCECodeVerifier(),
      };
      const url = openid.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        code_challenge: await openid.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url: url.href, flow: sealFlow(flow) };
    },

    async finish(callbackUrl, sealed) {
      const flow = openFlow(sealed);
      const config = await discovered();
      let tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>;
      try {
        tokens = await openid.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new UnauthorizedError(
          `The identity provider's answer was refused: ${(error as Error).message}`,
        );
      }
      const idClaims = tokens.claims()!;
      // The ID token may carry only `sub`; the rest is then in userinfo, for the same subject.
      const claims: Record<string, unknown> =
        typeof idClaims.email === 'string' && idClaims.email_verified !== undefined
          ? idClaims
          : { ...(await openid.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...idClaims };
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!email) throw new ForbiddenError('The identity provider gave no e-mail address');
      if (claims.email_verified !== true && claims.email_verified !== 'true')
        throw new ForbiddenError('The identity provider has not verified this e-mail address');
      // One `@` exactly: `mallory@evil.net@example.com` is no address of example.com.
      const parts = email.split('@');
      const domain = parts.length === 2 && parts[0] !== '' ? parts[1]! : '';
      if (!domain) throw new ForbiddenError('The identity provider gave no valid e-mail address');
      if (settings.allowedDomains.length > 0 && !settings.allowedDomains.includes(domain))
        throw new ForbiddenError(`Addresses of ${domain} may not sign in here`);
      const name = typeof claims.name === 'string' ? claims.name : '';
      const claimedRole = settings.roleClaim ? roleFromClaim(claims[settings.roleClaim]) : undefined;
      return { email, name, claimedRole };
    },
  };
}
