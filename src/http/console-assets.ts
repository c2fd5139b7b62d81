import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** Where `npm run build` puts the console: dist/web, from src/http or dist/http alike. */
const consoleDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

/** Paths that belong to the API: an unknown one is the API's JSON 404, never the console's page. */
const apiPaths = /^\/(v1|admin|console\/v1|api|docs|openapi\.json|healthz|readyz)(\/|$)/;

/**
 * Serves the console at `/`: its hashed assets cached for a year, `index.html` never cached, and
 * `index.html` for any other page a browser asks for (deep links into the single-page app).
 * Without a build (`dist/web`), the API runs alone and says so once.
 */
export async function registerConsole(app: FastifyInstance, logger: Logger): Promise<void> {
  if (!existsSync(path.join(consoleDirectory, 'index.html'))) {
    logger.info({ directory: consoleDirectory }, 'no console build: serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: consoleDirectory,
    wildcard: false,
    index: false,
    // The headers below decide caching, not the plugin's max-age=0 default.
    cacheControl: false,
    setHeaders(response, filePath) {
      const hashed = filePath.startsWith(path.join(consoleDirectory, 'assets') + path.sep);
      response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = String(request.headers.accept ?? '').includes('text/html');
    if (apiPaths.test(pathname) || !wantsPage) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
