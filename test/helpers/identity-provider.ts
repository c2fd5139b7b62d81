import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

// A real OpenID provider (oidc-provider, the certified library) in the test process, with its
// development login and consent pages, and a browser driven through them by plain HTTP.

export type Account = { email: string; emailVerified: boolean; name: string; groups?: string[] };

export type IdentityProvider = { issuer: string; close(): Promise<void> };

export const clientId = 'lectern-test';
export const clientSecret = 'lectern-test-secret-0123456789';

export async function startIdentityProvider(
  accounts: Record<string, Account>,
  redirectUri: string,
): Promise<IdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    cookies: { keys: ['identity-provider-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_context, id) {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: account.email,
            email_verified: account.emailVerified,
            name: account.name,
            ...(account.groups && { groups: account.groups }),
          };
        },
      };
    },
  });
  // Plain http on loopback in a test: the provider trusts no proxy headers.
  server.on('request', provider.callback());
  return { issuer, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A cookie jar for one host: what a browser keeps between requests. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (value.join('=') === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Follows a browser through the provider's login (as `account`) and consent pages, from the
 * authorization URL until the provider redirects to the client; answers that redirect's URL.
 */
export async function loginAt(authorizationUrl: string, account: string): Promise<string> {
  const jar = new Jar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body,
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (!next.startsWith(new URL(authorizationUrl).origin)) return next;
      [url, method, body] = [next, 'GET', undefined];
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt)
      throw new Error(`the provider answered a page without a form: ${page.slice(0, 300)}`);
    [url, method] = [new URL(action.replace(/&amp;/g, '&'), url).href, 'POST'];
    body = new URLSearchParams(prompt === 'login' ? { prompt, login: account, password: 'any' } : { prompt });
  }
  throw new Error('the provider never redirected back');
}
