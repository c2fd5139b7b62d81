import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  LecternError,
  NotFoundError,
  NotSupportedError,
  ServerError,
  StreamError,
} from '../transport/errors.js';

/**
 * The Klu SDK's error names, each the Lectern error family it stands for, so `instanceof` checks
 * written for the SDK keep working: every error is a KluError (LecternError); every 404 is an
 * InstanceNotFoundError, ActionNotFoundError, … (NotFoundError). Unlike the SDK's, each carries the
 * service's status, code and message.
 */
export const KluError = LecternError;
export const InstanceNotFoundError = NotFoundError;
export const InstanceRelationshipNotFoundError = NotFoundError;
export const ActionNotFoundError = NotFoundError;
export const AppNotFoundError = NotFoundError;
export const ContextNotFoundError = NotFoundError;
export const ExperimentNotFoundError = NotFoundError;
export const FineTuneNotFoundError = NotFoundError;
export const WorkspaceOrUserNotFoundError = NotFoundError;
export const UnknownModelProviderError = NotFoundError;
export const BadRequestAPIError = BadRequestError;
export const InvalidDataSent = BadRequestError;
export const InvalidActionPromptDataError = BadRequestError;
export const InvalidExperimentPromptData = BadRequestError;
export const InvalidFineTunePromptData = BadRequestError;
export const UnauthorizedError = AuthenticationError;
export const UnknownKluAPIError = ServerError;
export const NoResponseFromAPIError = ConnectionError;
export const APIRequestSetupError = ConnectionError;
export const StreamingError = StreamError;
/** Any other failure: the SDK's catch-all. */
export const UnknownKluError = LecternError;
/** A run answer without the URL its mode promises. */
export class InvalidPromptResponseError extends LecternError {
  constructor(responseMessage: string, parameterName: string) {
    super(`The required parameter ${parameterName} was not found in the prompt response: ${responseMessage}`);
  }
}
/** A route answered 405 (no such method on it): the SDK's name for it. */
export class InvalidApiMethodUsedError extends LecternError {
  constructor(status: number, message: string) {
    super(message, { status });
  }
}
/** A method the Klu SDK refuses itself, refused the same way: nothing is sent. */
export class NotImplementedError extends NotSupportedError {
  constructor(method = 'This method') {
    super(`${method} is not yet supported by the Klu SDK's interface; call the Lectern API for it`);
  }
}

/** Gives an error the SDK's name (Lectern's errors take theirs from their class otherwise). */
function named<Failure extends Error>(error: Failure, name: string): Failure {
  Object.defineProperty(error, 'name', { value: name, configurable: true });
  return error;
}

/** The SDK's own error classes by record: the name a 404 of that record carries. */
const notFoundNames: Record<string, string> = {
  Action: 'ActionNotFoundError',
  App: 'AppNotFoundError',
  Context: 'ContextNotFoundError',
  Experiment: 'ExperimentNotFoundError',
  FineTune: 'FineTuneNotFoundError',
  Workspace: 'WorkspaceOrUserNotFoundError',
};

/**
 * The SDK's name for any other failure, as its API layer names it: 400, 401, 405 and 422 by their own
 * names, any other status UnknownKluAPIError, no answer NoResponseFromAPIError, a broken stream
 * StreamingError.
 */
function otherNameOf(error: LecternError): string {
  if (error instanceof StreamError) return 'StreamingError';
  if (error.status === undefined) return 'NoResponseFromAPIError';
  return (
    {
      400: 'BadRequestAPIError',
      401: 'UnauthorizedError',
      405: 'InvalidApiMethodUsedError',
      422: 'InvalidDataSent',
    }[error.status] ?? 'UnknownKluAPIError'
  );
}

/**
 * An error as the SDK names and words it: a 404 as "Action with id … was not found." followed by
 * the service's message, named as the SDK names it: by a record's method (`actions.prompt`,
 * `deploy`, …) its own (`ActionNotFoundError`), by the generic `get`, `update` and `delete`
 * (`generic`) `InstanceNotFoundError`, and `InstanceRelationshipNotFoundError` for what a new record
 * names; other failures by the SDK's names (`BadRequestAPIError`, `UnauthorizedError`, …). The
 * class, and with it `status`, `code` and `instanceof`, stays Lectern's.
 */
export function notFoundAs(error: unknown, instanceName: string, id?: string, generic = false): unknown {
  if (!(error instanceof LecternError)) return error;
  if (!(error instanceof NotFoundError) || error.status !== 404) {
    return named(error, otherNameOf(error));
  }
  const wording =
    id === undefined ? `${instanceName} was not found.` : `${instanceName} with id ${id} was not found.`;
  return named(
    new NotFoundError(`${wording} ${error.message}`, error),
    instanceName.startsWith('One of the relationships')
      ? 'InstanceRelationshipNotFoundError'
      : (!generic && notFoundNames[instanceName]) || 'InstanceNotFoundError',
  );
}
