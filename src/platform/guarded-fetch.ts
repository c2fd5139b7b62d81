import { fetch as undiciFetch } from 'undici';
import { createOutboundGuard, OutboundFetchError, type OutboundGuardOptions } from './outbound-guard.js';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const maximumRedirects = 5;
/** Headers of an upstream error kept when its body is withheld: what a client may act on. */
const keptErrorHeaders = ['retry-after', 'retry-after-ms', 'x-request-id'];

/**
 * A standard `fetch` for the model providers a workspace configures (their base URLs are tenant
 * input, docs/security.md): every connection goes through the outbound guard, redirects are followed only
 * within the same origin and checked again, and an error answered from a private address (one the
 * operator allowed with `LECTERN_OUTBOUND_ALLOW`) reaches the caller as its status alone — the body of
 * an internal service is not shown to a tenant.
 */
export function createGuardedFetch(options: OutboundGuardOptions): typeof fetch {
  const guard = createOutboundGuard(options);

  function withheld(response: Response): Response {
    const headers = new Headers({ 'content-type': 'application/json' });
    for (const name of keptErrorHeaders) {
      const value = response.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    void response.body?.cancel();
    const message = `the server answered ${response.status}`;
    return new Response(JSON.stringify({ error: { message } }), { status: response.status, headers });
  }

  async function send(url: URL, init: RequestInit | undefined): Promise<Response> {
    try {
      // undici's own fetch takes its own dispatcher; its Response is the standard one at run time.
      return (await undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher: guard.dispatcher,
        redirect: 'manual',
      })) as unknown as Response;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      // A refused address: the guard's own message, not a retryable network failure.
      if (cause instanceof OutboundFetchError) throw cause;
      throw error;
    }
  }

  return async (input, init) => {
    if (input instanceof Request) throw new TypeError('the guarded fetch takes a URL and options');
    let url = guard.checkUrl(String(input));
    let request = init;
    for (let redirects = 0; ; redirects++) {
      const response = await send(url, request);
      if (redirectStatuses.has(response.status)) {
        void response.body?.cancel();
        const location = response.headers.get('location');
        if (location === null || redirects >= maximumRedirects) {
          throw new OutboundFetchError(
            `the provider answered ${response.status} without a usable redirect`,
            false,
          );
        }
        const next = guard.checkUrl(new URL(location, url).toString());
        // Credentials are never carried to another origin, and a provider has no reason to send us there.
        if (next.origin !== url.origin) {
          throw new OutboundFetchError('the provider redirected to another origin; not followed', false);
        }
        if (
          response.status === 303 ||
          ((response.status === 301 || response.status === 302) && request?.method !== 'HEAD')
        ) {
          request = { ...request, method: 'GET', body: undefined };
        }
        url = next;
        continue;
      }
      if (response.status >= 400 && guard.isPrivateHost(url.hostname)) return withheld(response);
      return response;
    }
  };
}
