import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '../errors.js';

/**
 * The API speaks JSON only: a body of any other content type is refused (400). A request with no
 * body passes whatever its content type: axios (the official SDK) posts bodiless requests such as
 * `actions.disable` as `application/x-www-form-urlencoded`.
 * JSON bodies: an empty body is accepted as "no body" (clients send DELETE with a JSON content type
 * and nothing else); `__proto__` / `constructor.prototype` keys are rejected as in Fastify's default.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json$/i,
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
      } catch (error) {
        // JSON.parse quotes part of the body in its message; the body may hold a key, so keep only the position.
        const position = /position (\d+)/.exec((error as Error).message)?.[1];
        const where = position === undefined ? '' : ` at position ${position}`;
        done(new AppError(400, 'invalid_json', `Malformed JSON body${where}`), undefined);
      }
    },
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    const type = String(request.headers['content-type'] ?? '').split(';')[0];
    done(
      new AppError(
        400,
        'unsupported_content_type',
        `Unsupported Media Type "${type}": send JSON (application/json)`,
      ),
      undefined,
    );
  });
}
