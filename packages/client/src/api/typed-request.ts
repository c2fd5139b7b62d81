import type { HttpClient } from '../transport/http.js';
import type { Routes } from './api-types.js';

/** A route of the API by method and path, as /openapi.json lists it: `'GET /v1/actions/{guidOrSlug}'`. */
export type Route = keyof Routes;
/** What a route answers on success. */
export type Answer<R extends Route> = Routes[R]['answer'];
/** A route's JSON body. */
export type Body<R extends Route> = Routes[R]['body'];
/** A route's query parameters. */
export type Query<R extends Route> = Routes[R]['query'];

type Absent<T> = [T] extends [never] ? true : false;

/** Per request: its own time limit and signal, extra headers, and the key that makes a retried POST safe. */
export type CallOptions = {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  idempotencyKey?: string;
};

/** A route's parameters: `path` when it has any, `query` when it takes one, `body` (required when the route requires it). */
export type RequestOptions<R extends Route> = CallOptions &
  (Absent<Routes[R]['path']> extends true ? { path?: undefined } : { path: Routes[R]['path'] }) &
  (Absent<Routes[R]['query']> extends true ? { query?: undefined } : { query?: Routes[R]['query'] }) &
  (Absent<Routes[R]['body']> extends true
    ? { body?: undefined }
    : Routes[R]['bodyRequired'] extends true
      ? { body: Routes[R]['body'] }
      : { body?: Routes[R]['body'] });

/** The options argument: required when the route has path parameters or a required body. */
export type RequestArguments<R extends Route> =
  Absent<Routes[R]['path']> extends true
    ? Routes[R]['bodyRequired'] extends true
      ? [options: RequestOptions<R>]
      : [options?: RequestOptions<R>]
    : [options: RequestOptions<R>];

/** `/v1/actions/{guid}` with `{ guid: 'a b' }` → `/v1/actions/a%20b`. */
export function fillPath(template: string, values: Record<string, unknown> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null)
      throw new TypeError(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** A route's method, and its path with the path parameters filled in. */
export function requestTarget<R extends Route>(
  route: R,
  options: RequestOptions<R> | undefined,
): { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string } {
  const space = route.indexOf(' ');
  return {
    method: route.slice(0, space) as 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: fillPath(route.slice(space + 1), options?.path as Record<string, unknown> | undefined),
  };
}

/** Sends one typed request: the route names the method and path; the options fill it. */
export async function typedRequest<R extends Route>(
  http: HttpClient,
  route: R,
  options: RequestOptions<R> | undefined,
): Promise<Answer<R>> {
  const { method, path } = requestTarget(route, options);
  const answer = await http.request<Answer<R>>({
    method,
    path,
    query: options?.query as Parameters<HttpClient['request']>[0]['query'],
    body: options?.body,
    signal: options?.signal,
    timeoutMs: options?.timeoutMs,
    headers: options?.headers,
    idempotencyKey: options?.idempotencyKey,
  });
  return answer.body;
}
