import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.js';

// Secrets that may pass through objects we log; pino replaces them before anything is written.
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-svc-api-key"]',
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
  'body.key',
];

const tokenInQuery = /([?&](?:token|signature)=)[^&]*/gi;

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: {
        // Signed URLs carry their credential in the query string: keep it out of access logs.
        req: (request: { method: string; url: string; id?: string }) => ({
          id: request.id,
          method: request.method,
          url: request.url.replace(tokenInQuery, '$1[redacted]'),
        }),
      },
    },
    destination,
  );
}
