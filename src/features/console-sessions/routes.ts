import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { UnauthorizedError } from '../../errors.js';
import type { ConsoleSignIns } from '../../http/authentication.js';
import { assertSameOrigin, sessionCookies, sessionTokenOf } from '../../http/session-cookie.js';
import type { AuthenticatedWorkspace } from '../workspaces/index.js';
import { type SignedInResponse, signedInResponse, signedOutResponse } from './responses.js';
import { signInBody } from './schemas.js';

const presentSignIn = (workspace: AuthenticatedWorkspace): SignedInResponse => ({
  workspace: { guid: workspace.id, name: workspace.name },
});

/**
 * The console's sign-in (docs/api.md#console-sign-in): a person pastes a workspace API key once;
 * the browser gets an HttpOnly session cookie instead and never stores the key.
 */
export function consoleSessionRoutes({
  sessions,
  secureCookie,
  publicOrigin,
}: ConsoleSignIns): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['console'];

    app.post(
      '/session',
      { schema: { tags, body: signInBody, response: { 201: signedInResponse } } },
      async (request, reply) => {
        // A sign-in from another site's page would sign the person into someone else's workspace.
        assertSameOrigin(request, publicOrigin);
        const signedIn = await sessions.signIn(request.body.api_key, request.ip);
        if (!signedIn) throw new UnauthorizedError('Invalid or revoked API key');
        reply.header(
          'set-cookie',
          sessionCookies(signedIn.token, { maxAgeMs: sessions.idleMs, secure: secureCookie }),
        );
        return reply.status(201).send(presentSignIn(signedIn.workspace));
      },
    );

    app.get('/session', { schema: { tags, response: { 200: signedInResponse } } }, async (request) => {
      const token = sessionTokenOf(request);
      const session = token ? await sessions.authenticate(token) : undefined;
      if (!session) throw new UnauthorizedError('Not signed in');
      return presentSignIn(session.workspace);
    });

    app.delete(
      '/session',
      { schema: { tags, response: { 200: signedOutResponse } } },
      async (request, reply) => {
        assertSameOrigin(request, publicOrigin);
        const token = sessionTokenOf(request);
        if (token) await sessions.signOut(token);
        reply.header('set-cookie', sessionCookies('', { maxAgeMs: 0, secure: secureCookie }));
        return { signed_out: true as const };
      },
    );

    // "Sign out everywhere": every browser signed in with the same API key as this one, this one too.
    app.delete(
      '/sessions',
      { schema: { tags, response: { 200: signedOutResponse } } },
      async (request, reply) => {
        assertSameOrigin(request, publicOrigin);
        const token = sessionTokenOf(request);
        const ended = token ? await sessions.signOutEverywhere(token) : 0;
        if (ended === 0) throw new UnauthorizedError('Not signed in');
        reply.header('set-cookie', sessionCookies('', { maxAgeMs: 0, secure: secureCookie }));
        return { signed_out: true as const, sessions_ended: ended };
      },
    );
  };
}
