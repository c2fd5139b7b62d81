import type { FastifyInstance } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../core/wire.js';
import { AppError } from '../errors.js';

// Every route declares the answers it gives (its `response` schemas), so /openapi.json tells the
// whole truth and the console's types are the server's own. Answers are written with JSON.stringify
// either way; the check against the declared schema runs only where it is asked for (the tests), so
// a production answer costs nothing extra and is never changed by a schema.

/** An answer that does not match its route's declared schema (only ever raised in check mode). */
export class ResponseMismatchError extends AppError {
  constructor(method: string, url: string, status: number | string, problems: string) {
    super(500, 'response_mismatch', `${method} ${url} answered ${status} unlike its schema: ${problems}`);
  }
}

function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const inner = (schema as { properties?: unknown } | undefined)?.properties;
  if (inner instanceof z.ZodType) return inner;
  throw new TypeError(`a response schema must be a zod schema, not ${JSON.stringify(schema)}`);
}

function describeProblems(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
    .join('; ');
}

/** Writes answers as JSON; with `check`, first fails any answer its declared schema refuses. */
export function responseSerializer(check: boolean): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url, httpStatus }) => {
    if (!check) return (data) => JSON.stringify(data);
    const declared = zodSchemaOf(schema);
    return (data) => {
      const result = declared.safeParse(data);
      if (!result.success) {
        throw new ResponseMismatchError(method, url, httpStatus ?? '', describeProblems(result.error));
      }
      return JSON.stringify(data);
    };
  };
}

/**
 * Gives every route the error body for its 4xx and 5xx answers (one shape, docs/api.md#errors), and
 * with `check` refuses to start a route of the API that declares no answer of its own
 * (its success, or the one error a route that only refuses answers).
 */
export function registerResponseContract(app: FastifyInstance, check: boolean): void {
  app.setSerializerCompiler(responseSerializer(check));
  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    const response = (route.schema.response ?? {}) as Record<string, unknown>;
    // The API's routes are those with tags (how the OpenAPI document groups them, hidden ones too);
    // the console's files and the documentation pages are not part of it.
    const ofTheApi = Array.isArray(route.schema.tags) && route.schema.tags.length > 0;
    if (check && ofTheApi && Object.keys(response).length === 0) {
      throw new Error(`${route.method} ${route.url} declares no response schema`);
    }
    route.schema.response = { '4xx': errorResponse, '5xx': errorResponse, ...response };
  });
}

/**
 * The OpenAPI document's named records (Action, Generation, Error…: the wire schemas with an `id`)
 * as components. The zod transform writes each twice, as read and as written (`ActionInput`); the
 * answers are only ever read, so a written form no route refers to is left out. Components and paths
 * are listed by name: the order the modules load and mount in is no part of the API.
 */
export const namedComponents: typeof jsonSchemaTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input);
  if (document.paths) {
    const byPath = Object.entries(document.paths).sort(([first], [second]) => (first < second ? -1 : 1));
    document.paths = Object.fromEntries(byPath) as typeof document.paths;
  }
  if (!('components' in document) || !document.components?.schemas) return document;
  const schemas: Record<string, unknown> = document.components.schemas;
  const referenced = JSON.stringify(document.paths ?? {});
  const named = Object.keys(schemas)
    .filter((name) => !name.endsWith('Input') || referenced.includes(`#/components/schemas/${name}"`))
    .sort()
    .map((name) => [name, schemas[name]]);
  document.components.schemas = Object.fromEntries(named) as typeof document.components.schemas;
  return document;
};
