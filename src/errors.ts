import type { ErrorCode } from './core/error-codes.js';

// One error hierarchy for services; src/http/error-handler.ts maps it to the docs/api.md#errors body.

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** What the answer says beyond its message: a refused deploy's unmet conditions, a conflict's latest version. */
    readonly details?: Record<string, unknown>[] | Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A request a service refuses: the field it names (as the client wrote it) and why. */
export class ValidationError extends AppError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(400, 'validation_error', `${field}: ${reason}`);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

/** A release gate, named as a person finds it: the Action's slug and the environment. */
export type GateReference = { action: string; environment: string };

/** A dataset or an evaluator a release gate reads: removing it would leave the gate refusing every deploy. */
export class UsedByGateError extends AppError {
  constructor(kind: 'dataset' | 'evaluator', gates: GateReference[]) {
    const named = gates.map((gate) => `${gate.action} in ${gate.environment}`).join(', ');
    super(
      409,
      'used_by_release_gate',
      `this ${kind} is read by the release gate of ${named}; change or remove that gate first`,
    );
  }
}

/** A save whose `base_version` is no longer the latest version: nothing was saved. */
export class VersionConflictError extends AppError {
  constructor(
    what: string,
    readonly latestVersion: number,
    baseVersion: number,
  ) {
    super(
      409,
      'version_conflict',
      `${what} was saved as version ${latestVersion} after version ${baseVersion}, which this change started from; nothing was saved`,
      { latest_version: latestVersion },
    );
  }
}

/** Too many attempts of something: answered 429 with `Retry-After`. */
export class TooManyRequestsError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid API key') {
    super(401, 'unauthorized', message);
  }
}

/** A model provider failed; `retryable` tells the run engine whether another attempt may succeed. */
export class ProviderError extends AppError {
  constructor(
    message: string,
    readonly retryable: boolean,
    status = 502,
  ) {
    super(status, 'provider_error', message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

/** A capability Lectern does not have (the official SDK's fine-tuning): 501, naming it. */
export class NotSupportedError extends AppError {
  constructor(capability: string, instead?: string) {
    super(501, 'not_supported', `${capability} is not supported by Lectern${instead ? `: ${instead}` : ''}`);
  }
}

/** A part the request needs (the job queue's Redis or database) does not answer; try again later. */
export class ServiceUnavailableError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(503, code, message);
  }
}

/** A failure no other attempt can change (a file of an unknown type, a text over its budget). */
export class PermanentError extends Error {
  readonly retryable = false;
}

/**
 * The one answer to "may another attempt succeed?". An error that says so itself (`retryable`: a
 * provider's 429 or 5xx, a network failure, a PermanentError) is taken at its word; our own other
 * errors (bad input, a missing resource) never change; anything unknown may be passing trouble.
 */
export function isRetryable(error: unknown): boolean {
  const said = (error as { retryable?: unknown } | null)?.retryable;
  if (typeof said === 'boolean') return said;
  return !(error instanceof AppError);
}

/**
 * A failure nothing will change by trying again, with the status a client reads: bad input, a missing
 * Action, a provider's 4xx. A job records such a failure at once; anything else it throws, so the
 * queue retries with backoff.
 */
export function isFinal(error: unknown): error is AppError {
  return error instanceof AppError && !isRetryable(error);
}

/**
 * What a client may read of a failure: our own errors say what went wrong. Anything else — a database
 * error quoting its statement and parameters, a bug's message — stays in the server log.
 */
export function publicMessage(error: unknown): string {
  return error instanceof AppError ? error.message : 'Internal error: the server log has the details';
}
