import type { QueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../packages/client/src/api/api-types';
import {
  type Answer,
  type Body,
  type Query,
  type RequestArguments,
  type RequestOptions,
  type Route,
  requestTarget,
} from '../../packages/client/src/api/typed-request';
import { requestUrl } from '../../packages/client/src/transport/http';
import { keys } from './queries/keys';

export type { Answer, Body, Query, Route };
/** An answer of the API that is not 2xx: its message, and the field it names when it names one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    /** The error's code (`gate_failed`, `forbidden`…) and its details (a refused deploy's unmet conditions). */
    readonly code?: string,
    readonly details?: Record<string, unknown>[] | Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * One call to the service, named by its route in the map generated from the service's OpenAPI
 * document (the one the TypeScript client uses): `api('GET /v1/data/{guid}', { path: { guid } })`.
 * Path parameters, query, body and answer all follow from the route, so a server change the
 * console does not handle fails `tsc`. The console authenticates with its session cookie (same
 * origin, sent by the browser); it never sees or stores an API key after signing in.
 */
export async function api<R extends Route>(route: R, ...[options]: RequestArguments<R>): Promise<Answer<R>> {
  const { method } = requestTarget(route, options);
  const body = options?.body;
  return answerOf<Answer<R>>(
    await fetch(urlOf(route, options), {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options?.signal,
    }),
  );
}

/** A route's address with its path and query filled in: for a link the browser follows itself (a download). */
export function routeUrl<R extends Route>(route: R, ...[options]: RequestArguments<R>): string {
  return urlOf(route, options);
}

/** The absolute URL of a route on this origin, path parameters filled in and the query's defined values added. */
function urlOf<R extends Route>(route: R, options: RequestOptions<R> | undefined): string {
  const { path } = requestTarget(route, options);
  return requestUrl(window.location.origin, path, options?.query as Parameters<typeof requestUrl>[2]);
}

/** Posts a file as it is (a dataset import: JSON Lines or CSV), with its content type. */
export async function sendFile<R extends Route>(
  route: R,
  options: RequestOptions<R>,
  file: Blob,
  contentType: string,
): Promise<Answer<R>> {
  return answerOf<Answer<R>>(
    await fetch(urlOf(route, options), {
      method: requestTarget(route, options).method,
      credentials: 'same-origin',
      headers: { 'content-type': contentType },
      body: file,
    }),
  );
}

async function answerOf<Answer>(response: Response): Promise<Answer> {
  const text = await response.text();
  // A proxy in front may answer an error page, not JSON: its status still tells what happened.
  let parsed: Partial<Schemas['Error']> | undefined;
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

// The API's records and answers, as the service's OpenAPI document declares them: named here from the
// generated map (`Schemas`, and the answers of `Routes`), never written out by hand.
/** A page of a list route: its rows, the total, and whether more follow. */
export type ListEnvelope<Row> = Omit<Answer<'GET /v1/apps'>, 'data'> & { data: Row[] };
/** An element of a list route's page. */
type Row<R extends Route> = Answer<R> extends { data: Array<infer Element> } ? Element : never;
export type Action = Schemas['Action'];
export type ActionVersion = Schemas['ActionVersion'];
export type ApiKey = Schemas['ApiKey'];
export type App = Schemas['App'];
export type AuditRecord = Schemas['AuditRecord'];
export type Comparison = Schemas['EvaluationComparison'];
export type ConnectionTest = Answer<'POST /v1/providers/{guid}/test'>;
export type Context = Schemas['Context'];
export type ContextDocument = Schemas['Document'];
export type ContextSource = Schemas['ContextSource'];
export type CreatedApiKey = Answer<'POST /v1/api_keys'>;
export type Dataset = Schemas['Dataset'];
export type ReviewQueue = Schemas['ReviewQueue'];
export type ReviewItem = Schemas['ReviewItem'];
export type ReviewedGeneration = Schemas['ReviewedGeneration'];
export type LeasedReviewItem = NonNullable<Answer<'POST /v1/review_queues/{guid}/next'>>;
export type Snippet = Schemas['Snippet'];
export type Folder = Schemas['Folder'];
export type DatasetItem = Schemas['DatasetItem'];
export type Evaluation = Schemas['Evaluation'];
export type EvaluationResult = Schemas['EvaluationResult'];
export type Evaluator = Schemas['Evaluator'];
export type Experiment = Schemas['Experiment'];
export type ExperimentResults = Answer<'GET /v1/experiments/{guid}/results'>;
export type Feedback = Schemas['Feedback'];
export type GateCheck = Answer<'GET /v1/actions/{guid}/gates/{environment}/check'>;
export type Generation = Schemas['Generation'];
export type GenerationWithFeedback = Answer<'GET /v1/data/{guid}'>;
export type Invitation = Schemas['Invitation'];
export type ItemChanged = Answer<'PUT /v1/datasets/{guid}/items/{itemGuid}'>;
export type ItemsAdded = Answer<'POST /v1/datasets/{guid}/items'>;
export type ListedAction = Row<'GET /v1/actions'>;
export type ListedGeneration = Row<'GET /v1/data'>;
export type Member = Schemas['Member'];
export type MemberWorkspace = Answer<'GET /v1/me/workspaces'>[number];
export type Model = Schemas['Model'];
export type NewInvitation = Answer<'POST /v1/members'>;
export type Provider = Schemas['Provider'];
export type Score = Schemas['Score'];
export type SearchHit = Schemas['SearchHit'];
export type Session = Schemas['Session'];
export type SignedIn = Answer<'GET /console/v1/session'>;
export type SignInOptions = Answer<'GET /console/v1/sign_in_options'>;
export type Skill = Schemas['Skill'];
export type SkillType = Schemas['SkillType'];
export type Statistics = Answer<'GET /v1/statistics'>;
export type Upload = Answer<'POST /v1/files/upload'>;
/** What a version is made of (template, model and its configuration, Contexts, Skills, tools), without its number and history. */
export type VersionFields = Omit<
  Schemas['ActionVersion'],
  'version' | 'environments' | 'saved_by_id' | 'created_at'
>;
export type Workflow = Schemas['Workflow'];
export type WorkflowBlock = Schemas['WorkflowBlock'];
export type Trace = Schemas['Trace'];
export type TraceWithSpans = Schemas['TraceWithSpans'];
export type Span = Schemas['Span'];
export type WorkflowBlocks = Answer<'GET /v1/workflows/{guid}/blocks'>;

export type WorkflowTrigger = Answer<'POST /v1/workflows/{guid}/trigger'>;

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
