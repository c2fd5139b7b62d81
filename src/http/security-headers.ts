import { randomBytes } from 'node:crypto';
import helmet from '@fastify/helmet';
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
 * X-Frame-Options for older browsers, `nosniff`, and no full Referer to other sites. HSTS only when
 * the service is reached over HTTPS (LECTERN_BASE_URL): browsers ignore it over plain HTTP, and a
 * laptop's http://127.0.0.1 must keep working.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: policy },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Signed file URLs may be embedded by an application on another origin (an <img>).
    crossOriginResourcePolicy: false,
    crossOriginEmbedderPolicy: false,
  });
  // The API docs page (Swagger UI) writes <style> elements from its bundle; it may have inline styles,
  // still no inline script. No other page does.
  const docsPolicy = serialize({ ...policy, 'style-src': [...policy['style-src']!, "'unsafe-inline'"] });
  app.addHook('onSend', async (request, reply) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/')) {
      reply.header('content-security-policy', docsPolicy);
    }
  });
}
