import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every answer: everything from the service's own origin, no inline
 * script or style, and no framing by any page (clickjacking: a page on another port framed Settings
 * and a click created an API key).
 */
const policy: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

const serialize = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');

/**
 * The console page's own policy and the nonce it names: the template editor (CodeMirror) writes its
 * styles into one <style> element, which may carry this nonce; the page hands it over from its
 * `csp-nonce` meta tag. A new nonce every time the page is served.
 */
export function consolePagePolicy(): { nonce: string; header: string } {
  const nonce = randomBytes(16).toString('base64');
  return {
    nonce,
    header: serialize({ ...policy, 'style-src': [...policy['style-src']!, `'nonce-${nonce}'`] }),
  };
}

/**
 * The headers every answer carries, console pages and API alike (docs/security.md): the policy above,
 * X-Frame-Options for older browsers, `nosniff`, no full Referer to other sites, no opener shared
 * with another site's window. HSTS only when the service is reached over HTTPS (LECTERN_BASE_URL):
 * browsers ignore it over plain HTTP, and a laptop's http://127.0.0.1 must keep working. They never
 * vary, so they are built once and set together (a middleware rebuilding them cost ~50 µs a request).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const headers: Record<string, string> = {
    'content-security-policy': serialize(policy),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
    'x-permitted-cross-domain-policies': 'none',
    ...(options.https && { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }),
  };
  // The API docs page (Swagger UI) writes <style> elements from its bundle; it may have inline styles,
  // still no inline script. No other page does.
  const docsHeaders = {
    ...headers,
    'content-security-policy': serialize({
      ...policy,
      'style-src': [...policy['style-src']!, "'unsafe-inline'"],
    }),
  };
  // A callback hook, not an async one: it runs on every request, runs included.
  app.addHook('onRequest', (request, reply, done) => {
    const docs = request.url === '/docs' || request.url.startsWith('/docs/');
    reply.headers(docs ? docsHeaders : headers);
    done();
  });
}
