import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { packagePath } from '../platform/install-paths.js';
import type { NotFoundFallback } from './error-handler.js';
import { consolePagePolicy } from './security-headers.js';

/** Where `npm run build` puts the console, found from the sources and the build alike. */
const consoleDirectory = packagePath('dist', 'web');

/**
 * Paths that belong to the API: an unknown one is the API's JSON 404, never the console's page.
 * `/.well-known/` among them: an MCP client that meets a 401 looks up OAuth metadata there and must
 * read a JSON 404, not the console's HTML.
 */
const apiPaths = /^\/(v1|admin|console\/v1|api|docs|openapi\.json|healthz|readyz|mcp|\.well-known)(\/|$)/;
/** A path whose last segment has an extension: a file, not a page of the console. */
const fileName = /\/[^/]*\.[^/]*$/;

/**
 * Serves the console at `/`: its files (hashed assets cached for a year, the rest never cached),
 * and, through the not-found handler, `index.html` for `GET` of any other path that is neither the
 * API's nor a file's (deep links into the single-page app). Without a build (`dist/web`) the API runs alone and says so.
 * The fallback is a not-found handler, not a catch-all route, so the router's own answers (414 for
 * an over-long path parameter) stay as they are.
 */
export async function registerConsole(
  app: FastifyInstance,
  logger: Logger,
): Promise<NotFoundFallback | undefined> {
  if (!existsSync(path.join(consoleDirectory, 'index.html'))) {
    logger.info({ directory: consoleDirectory }, 'no console build: serving the API only');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: consoleDirectory,
    wildcard: false,
    index: false,
    // The page itself is served below, with the nonce its policy names; never as a plain file.
    allowedPath: (pathname) => pathname !== '/index.html',
    // The headers below decide caching, not the plugin's max-age=0 default.
    cacheControl: false,
    setHeaders(response, filePath) {
      const hashed = filePath.startsWith(path.join(consoleDirectory, 'assets') + path.sep);
      response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The page names a nonce of its own each time it is served (security-headers.ts says why).
  const page = readFileSync(path.join(consoleDirectory, 'index.html'), 'utf8');
  return async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const asksForPage = String(request.headers.accept ?? '').includes('text/html');
    // `curl /` and a deep link get the page whatever they accept; a missing file (`/missing.js`) asked
    // for by a script or a stylesheet gets the 404 it would get anywhere.
    const namesFile = fileName.test(pathname);
    if (request.method !== 'GET' || apiPaths.test(pathname) || (namesFile && !asksForPage)) return false;
    const { nonce, header } = consolePagePolicy();
    await reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', header)
      .type('text/html; charset=utf-8')
      .send(page.replace('%CSP_NONCE%', nonce));
    return true;
  };
}
