import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.js';
import { isStorableText } from '../platform/storable-text.js';

/** Deeper JSON than any field of the API needs; walking it further only costs the service. */
export const maximumJsonDepth = 64;

type Pending = { value: unknown; path: string; depth: number };

/**
 * The first problem of a request part that PostgreSQL could not store or that is absurdly deep: a
 * string or key with NUL or an unpaired surrogate, or nesting past `maximumJsonDepth`. Iterative, so
 * a hostile depth cannot overflow the stack.
 */
export function findUnstorableInput(value: unknown, root: string): ValidationError | undefined {
  const pending: Pending[] = [{ value, path: root, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, path, depth } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) {
        return new ValidationError(path, 'must not contain NUL (U+0000) or unpaired surrogate characters');
      }
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maximumJsonDepth) {
      return new ValidationError(path, `is nested deeper than ${maximumJsonDepth} levels`);
    }
    for (const [key, child] of Object.entries(current)) {
      const childPath = `${path}.${key}`;
      if (!isStorableText(key)) {
        return new ValidationError(path, 'a key must not contain NUL (U+0000) or unpaired surrogates');
      }
      pending.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Refuses such input on every route with a 400 naming the field, before any route sees it. */
export function registerStorableInputCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problem =
      findUnstorableInput(request.params, 'params') ??
      findUnstorableInput(request.query, 'querystring') ??
      // A body a route reads as it arrives (a dataset import) is a stream, and one it decodes itself
      // (an OTLP export) is bytes: the route makes what it stores storable.
      (request.body instanceof Readable || request.body instanceof Uint8Array
        ? undefined
        : findUnstorableInput(request.body, 'body'));
    if (problem) throw problem;
  });
}
