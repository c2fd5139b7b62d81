import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import type { PayloadDecoder } from '../platform/payloads/payload-decoder.js';

/** JSON's whitespace: a body of nothing else is no body. */
const jsonWhitespace = new Set([0x20, 0x09, 0x0a, 0x0d]);

function isBlank(body: Buffer): boolean {
  for (const byte of body) if (!jsonWhitespace.has(byte)) return false;
  return true;
}

/**
 * The API speaks JSON only: a body of any other content type is refused (400). A request with no
 * body passes whatever its content type: axios (the official SDK) posts bodiless requests such as
 * `actions.disable` as `application/x-www-form-urlencoded`.
 * JSON bodies: an empty body is accepted as "no body" (clients send DELETE with a JSON content type
 * and nothing else); `__proto__` / `constructor.prototype` keys are rejected as in Fastify's default.
 * A large body is parsed on the payload decoder's worker thread.
 */
export function registerJsonBodyParser(app: FastifyInstance, payloads: PayloadDecoder): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json$/i,
    { parseAs: 'buffer' },
    (_request, body, done) => {
      const bytes = body as Buffer;
      if (isBlank(bytes)) return done(null, undefined);
      payloads.parseJson(bytes).then(
        (value) => done(null, value),
        (error: Error) => {
          // Not the body's fault (the decoder's thread failed): a server error, logged as one.
          if (!(error instanceof SyntaxError)) return done(error, undefined);
          // JSON.parse quotes part of the body in its message; the body may hold a key, so keep only the position.
          const position = /position (\d+)/.exec(error.message)?.[1];
          const where = position === undefined ? '' : ` at position ${position}`;
          done(new AppError(400, 'invalid_json', `Malformed JSON body${where}`), undefined);
        },
      );
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
