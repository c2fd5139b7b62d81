import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.js';
import { withoutQueryCredentials } from '../core/query-credentials.js';

// Secrets that may pass through objects we log; pino replaces them before anything is written.
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-svc-api-key"]',
  'req.headers.cookie',
  'headers.cookie',
  'headers["set-cookie"]',
  'cookie',
  'headers.authorization',
  'headers["x-svc-api-key"]',
  'authorization',
  'key',
  'api_key',
  'apiKey',
  'secret',
  '*.key',
  '*.api_key',
  '*.apiKey',
  '*.secret',
  '*.encryptedKey',
  'credentials',
  '*.credentials',
  '*.secretAccessKey',
  'body.key',
];

/**
 * Logs go to stdout asynchronously: a request's log lines no longer wait for a write system call,
 * and lines written while one is in flight go out together. `flushLogs` before exiting.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  destination: DestinationStream = pino.destination({ dest: 1, sync: false }),
): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: {
        // Signed URLs and some clients carry a credential in the query string: keep it out of access logs.
        req: (request: { method: string; url: string; id?: string }) => ({
          id: request.id,
          method: request.method,
          url: withoutQueryCredentials(request.url),
        }),
      },
    },
    destination,
  );
}

export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
