import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '../core/error-codes.js';
import type { ErrorResponse } from '../core/wire.js';
import { AppError, TooManyRequestsError, ValidationError } from '../errors.js';

/** The body of every error answer (docs/api.md#errors); `field` names the input a validation error is about. */
export function errorBody(
  status: number,
  code: ErrorCode,
  message: string,
  field?: string,
  details?: Record<string, unknown>[] | Record<string, unknown>,
): ErrorResponse {
  return {
    error: { status, code, message, ...(field !== undefined && { field }), ...(details && { details }) },
    message,
    detail: message,
  };
}

type ValidationIssue = {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
};

/**
 * `error.field` as a client wrote the field: a body field by its own path (`messages.0.content`),
 * any other part with where it was (`querystring.limit`, `params.guid`).
 */
function clientField(path: string): string {
  return path.startsWith('body.') ? path.slice('body.'.length) : path;
}

/** "body.messages.0.content: Invalid input…" — the field named the way a client wrote it — and the first issue's field. */
function describeValidation(
  context: string | undefined,
  issues: ValidationIssue[],
): { message: string; field: string } {
  const where = context ?? 'body';
  const paths = issues.map(
    (issue) => issue.params?.issue?.path?.map(String) ?? issue.instancePath?.split('/').filter(Boolean) ?? [],
  );
  const described = issues.map((issue, index) => {
    return `${[where, ...paths[index]!].join('.')}: ${issue.message ?? 'invalid'}`;
  });
  const field = clientField([where, ...(paths[0] ?? [])].join('.'));
  return { message: `Validation failed: ${described.join('; ')}`, field };
}

// Fastify's own client errors, answered with our codes. Wrong content type is a 400 (not 415) by issue #2.
const fastifyClientErrors: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 400, code: 'unsupported_content_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
};

type DrainBound = { limitBytes: number; timeoutMs: number };

/** How much of a body over the limit is read and dropped, at most, so that its client hears the 413. */
const tooLargeDrain: DrainBound = { limitBytes: 256 * 1024 * 1024, timeoutMs: 30_000 };

/**
 * How much of any other refused body (a missing or bad key is refused before the body is read) is
 * read and dropped before the answer: a client sending at a normal rate hears its 401, one that
 * trickles its body is cut off within a second instead of holding the connection.
 */
const refusedDrain: DrainBound = { limitBytes: 1024 * 1024, timeoutMs: 1_000 };

/**
 * Reads the rest of a request body and drops it. A server that answers and closes while the client
 * still sends makes the client fail with EPIPE or a reset and never see the answer; once the body
 * has arrived (or the bound is reached) the answer is sent and the connection closed.
 */
function drainRequest(request: IncomingMessage, bound: DrainBound): Promise<void> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const done = () => {
      clearTimeout(timer);
      request.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > bound.limitBytes) done();
    };
    const timer = setTimeout(done, bound.timeoutMs);
    request.on('data', onData);
    request.once('end', done);
    request.once('close', done);
    request.once('error', done);
    request.resume();
  });
}

/** Answers a request no route took instead of the JSON 404 (the console's page), or says it does not. */
export type NotFoundFallback = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

export function registerErrorHandling(app: FastifyInstance, notFoundFallback?: NotFoundFallback): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // Answered before its body arrived (over the limit, or refused before it was read): the client
    // may still be sending it. The connection is closed after the answer, never kept for the rest.
    if (!request.raw.complete) {
      const tooLarge =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || (error instanceof AppError && error.status === 413);
      await drainRequest(request.raw, tooLarge ? tooLargeDrain : refusedDrain);
      reply.header('connection', 'close');
    }
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
      const field = error instanceof ValidationError ? clientField(error.field) : undefined;
      return reply
        .status(error.status)
        .send(errorBody(error.status, error.code, error.message, field, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const { message, field } = describeValidation(
        error.validationContext,
        error.validation as ValidationIssue[],
      );
      return reply.status(400).send(errorBody(400, 'validation_error', message, field));
    }
    const known = error.code ? fastifyClientErrors[error.code] : undefined;
    if (known) return reply.status(known.status).send(errorBody(known.status, known.code, error.message));
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return reply.status(400).send(errorBody(400, 'invalid_request', error.message));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send(errorBody(error.statusCode, 'invalid_request', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(500, 'internal_error', 'Internal server error'));
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (notFoundFallback && (await notFoundFallback(request, reply))) return reply;
    const path = request.url.split('?')[0];
    return reply.status(404).send(errorBody(404, 'not_found', `Route ${request.method} ${path} not found`));
  });
}
