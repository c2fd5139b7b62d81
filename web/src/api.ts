import type { QueryClient } from '@tanstack/react-query';
import type { ErrorBody, Generation, VersionFields } from '../../src/contract';
import { keys } from './queries/keys';
/** An answer of the API that is not 2xx: its message, and the field it names when it names one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    /** The error's code (`gate_failed`, `forbidden`…) and its details (a refused deploy's unmet conditions). */
    readonly code?: string,
    readonly details?: Record<string, unknown>[],
  ) {
    super(message);
  }
}

/**
 * One call to the service. The console authenticates with its session cookie (same origin, sent by
 * the browser); it never sees or stores an API key after signing in.
 */
export async function api<Answer>(method: string, path: string, body?: unknown): Promise<Answer> {
  return answerOf<Answer>(
    await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

/** Posts a file as it is (a dataset import: JSON Lines or CSV), with its content type. */
export async function sendFile<Answer>(path: string, file: Blob, contentType: string): Promise<Answer> {
  return answerOf<Answer>(
    await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': contentType },
      body: file,
    }),
  );
}

async function answerOf<Answer>(response: Response): Promise<Answer> {
  const text = await response.text();
  // A proxy in front may answer an error page, not JSON: its status still tells what happened.
  let parsed: Partial<ErrorBody> | undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    if (response.ok) throw new ApiError(response.status, 'The service answered something that is not JSON');
  }
  if (!response.ok) {
    const message: string = parsed?.message ?? `The service answered ${response.status}`;
    throw new ApiError(
      response.status,
      message,
      parsed?.error?.field,
      parsed?.error?.code,
      parsed?.error?.details,
    );
  }
  return parsed as Answer;
}

/**
 * Whether the browser may hold a console session: the service sets a readable marker cookie beside
 * the session's own (which scripts cannot read). Without it there is nothing to ask the service
 * about, and asking would log a refused request in the browser's console.
 */
export function mayBeSignedIn(): boolean {
  return document.cookie.split(';').some((pair) => pair.trim().startsWith('lectern_signed_in=1'));
}

/**
 * After a sign-out: every cached answer is forgotten and the session is known to be gone, so the
 * console shows the sign-in page at once, from whichever page signed out.
 */
export function forgetSignIn(queries: QueryClient): void {
  // The session query is kept (its observers stay subscribed) and set, the rest removed.
  queries.setQueryData(keys.session, null);
  queries.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.session[0] });
}

// The API's answers, as the server declares them (src/contract.ts): the console writes none by hand.
export type {
  Action,
  ActionVersion,
  ApiKey,
  App,
  Approvals,
  AuditRecord,
  Comparison,
  ConnectionTest,
  Context,
  ContextDocument,
  ContextSource,
  CreatedApiKey,
  Dataset,
  DatasetItem,
  Evaluation,
  EvaluationResult,
  Evaluator,
  Experiment,
  ExperimentResults,
  Feedback,
  GateCheck,
  Generation,
  GenerationWithFeedback,
  Invitation,
  ItemChanged,
  ItemsAdded,
  ListEnvelope,
  ListedAction,
  ListedGeneration,
  Me,
  Member,
  Model,
  Monitor,
  NewApiKey,
  NewInvitation,
  Provider,
  ProviderKind,
  ReleaseGate,
  Score,
  SearchHit,
  Session,
  SignedIn,
  SignInOptions,
  Skill,
  SkillType,
  Statistics,
  StreamRunAnswer,
  Upload,
  VersionFields,
  Workflow,
  WorkflowBlock,
  WorkflowBlocks,
  WorkflowDataset,
  WorkflowTrigger,
} from '../../src/contract';

/** A message of a version's template. */
export type TemplateMessage = NonNullable<VersionFields['messages']>[number];

/** A tool a version offers the model. */
export type ToolDefinition = VersionFields['tools'][number];

/** Which version made a record: `v3`, `draft` for a playground run of unsaved edits, `—` for logged ones. */
export function versionLabel(record: Pick<Generation, 'version' | 'source'>): string {
  if (record.version) return `v${record.version}`;
  const runSources = ['sync', 'stream', 'async'];
  return record.source && runSources.includes(record.source) ? 'draft' : '—';
}
