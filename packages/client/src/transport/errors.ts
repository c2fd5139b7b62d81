/**
 * Errors the client throws. Each carries what the server said: its status, its `error.code`, its
 * message (and the field a validation failure names). One class per family of statuses, so callers
 * catch what they can handle: `catch (e) { if (e instanceof NotFoundError) … }`.
 */

/** The body of every Lectern error answer (docs/api.md#errors). */
export type ErrorBody = {
  error?: { status?: number; code?: string; message?: string; field?: string; details?: unknown[] };
  message?: string;
  detail?: unknown;
};

export type ErrorFacts = {
  status?: number;
  code?: string;
  /** The server's own message, unchanged. */
  serverMessage?: string;
  field?: string;
  details?: unknown[];
  /** The answer's `x-request-id`, for the service's logs. */
  requestId?: string;
  /** What the answer's `Retry-After` (or `retry-after-ms`) asked for, in milliseconds. */
  retryAfterMs?: number;
  body?: unknown;
  cause?: unknown;
};

export class LecternError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly field: string | undefined;
  readonly details: unknown[] | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly body: unknown;

  constructor(message: string, facts: ErrorFacts = {}) {
    super(message, facts.cause === undefined ? undefined : { cause: facts.cause });
    this.status = facts.status;
    this.code = facts.code;
    this.serverMessage = facts.serverMessage;
    this.field = facts.field;
    this.details = facts.details;
    this.requestId = facts.requestId;
    this.retryAfterMs = facts.retryAfterMs;
    this.body = facts.body;
  }

  override get name(): string {
    return this.constructor.name;
  }
}

/** 400 and 422: the request was refused as sent; `field` names what to fix when the server said. */
export class BadRequestError extends LecternError {}
/** 401: no key, or a key the service does not know. */
export class AuthenticationError extends LecternError {}
/** 403: the key's or person's role lacks the right. */
export class PermissionDeniedError extends LecternError {}
/** 404: no such resource in this workspace (another workspace's is the same 404). */
export class NotFoundError extends LecternError {}
/** 409 and 410: the resource's state forbids it (a gate that failed, a stream already read). */
export class ConflictError extends LecternError {}
/** 413: the body is over the service's limit. */
export class PayloadTooLargeError extends LecternError {}
/** 429: too many requests; retried by the client as `Retry-After` says before it is thrown. */
export class RateLimitError extends LecternError {}
/** 501: a capability Lectern does not have (or a method this client refuses itself). */
export class NotSupportedError extends LecternError {}
/** 5xx: the service (or a provider behind it) failed; retried by the client before it is thrown. */
export class ServerError extends LecternError {}
/** No answer: the service could not be reached, or the connection broke before an answer came. */
export class ConnectionError extends LecternError {}
/** No answer within the request's time limit. */
export class TimeoutError extends ConnectionError {}
/** The caller's AbortSignal ended the request. */
export class AbortedError extends LecternError {}
/** A stream ended with an error event, or could not be resumed. */
export class StreamError extends LecternError {}

type ErrorClass = new (message: string, facts: ErrorFacts) => LecternError;

function classFor(status: number): ErrorClass {
  if (status === 400 || status === 422) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 409 || status === 410) return ConflictError;
  if (status === 413) return PayloadTooLargeError;
  if (status === 429) return RateLimitError;
  if (status === 501) return NotSupportedError;
  if (status >= 500) return ServerError;
  return LecternError;
}

/** The facts an error answer carries, from its body (Lectern's, or any JSON or text) and headers. */
export function errorFacts(status: number, body: unknown, headers: Headers): ErrorFacts {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const serverMessage =
    parsed.error?.message ??
    parsed.message ??
    (typeof parsed.detail === 'string' ? parsed.detail : undefined) ??
    (typeof body === 'string' && body.length > 0 ? body.slice(0, 500) : undefined);
  return {
    status,
    code: parsed.error?.code,
    serverMessage,
    field: parsed.error?.field,
    details: parsed.error?.details,
    requestId: headers.get('x-request-id') ?? undefined,
    retryAfterMs: retryAfterMs(headers),
    body,
  };
}

/** `Retry-After` (seconds or an HTTP date) or `retry-after-ms`, in milliseconds; undefined when absent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The error for an answer with status ≥ 400: "<server message> (<status> <code>)". */
export function errorForAnswer(status: number, body: unknown, headers: Headers): LecternError {
  const facts = errorFacts(status, body, headers);
  const message = `${facts.serverMessage ?? 'request failed'} (${status}${facts.code ? ` ${facts.code}` : ''})`;
  return new (classFor(status))(message, facts);
}
