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
/** A method the Klu SDK refuses itself, refused the same way: nothing is sent. */
export class NotImplementedError extends NotSupportedError {
  constructor(method = 'This method') {
    super(`${method} is not yet supported by the Klu SDK's interface; call the Lectern API for it`);
  }
}

/**
 * A 404 the way the SDK words it ("Action with id … was not found."), with the service's message
 * after it; other errors pass unchanged.
 */
export function notFoundAs(error: unknown, instanceName: string, id?: string): unknown {
  if (!(error instanceof NotFoundError) || error.status !== 404) return error;
  const named =
    id === undefined ? `${instanceName} was not found.` : `${instanceName} with id ${id} was not found.`;
  return new NotFoundError(`${named} ${error.message}`, error);
}
