import { randomBytes } from 'node:crypto';
import { type Client, createAction, createApp, request, type TestApp, unknownGuid } from './test-app.js';

// The route table as /openapi.json documents it, and what a walk over it needs: a request body that
// passes validation, and real GUIDs for path parameters. A route added later is walked without any
// edit here: its parameters fall back to unknown GUIDs and its body is built from its schema.

/** JSON Schema as the OpenAPI document gives it. */
export type Schema = any;

export type Route = {
  method: string;
  path: string;
  /** Needs a workspace key (the signed and token routes say `security: []` or live outside /v1). */
  authenticated: boolean;
  body?: Schema;
  query: string[];
  /** The right it declares (`x-right`, src/core/roles.ts). */
  right: string | undefined;
};

export async function documentedRoutes(test: TestApp): Promise<Route[]> {
  const document = (await request(test.app, 'GET', '/openapi.json')).body;
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries<Record<string, Schema>>(document.paths)) {
    for (const [method, operation] of Object.entries<Schema>(operations)) {
      // An endless event stream for any workspace key (deploys pushed to clients) never answers a
      // walker; test/features/prompts.test.ts checks its key and workspace. A one-time stream URL stays.
      if (path === '/v1/deployments/events') continue;
      const parameters: Schema[] = operation.parameters ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        authenticated:
          path.startsWith('/v1/') && !(Array.isArray(operation.security) && operation.security.length === 0),
        body: operation.requestBody?.content?.['application/json']?.schema,
        query: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        right: operation['x-right'],
      });
    }
  }
  return routes;
}

/** One workspace's resources of every kind a path parameter names. */
export type Resources = Record<string, string>;

export async function createResources(client: Client): Promise<Resources> {
  const app = await createApp(client);
  const action = await createAction(client, { app, slug: `walk-${client.workspaceGuid.slice(0, 8)}` });
  const second = await createAction(client, { app });
  const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'walk' } });
  const feedback = await client.post(`/v1/feedback/${run.body.data_guid}`, {
    type: 'rating',
    value: 'positive',
  });
  const session = await client.post('/v1/sessions', { action: action.guid });
  const experiment = await client.post('/v1/experiments', {
    name: 'walk',
    app_guid: app,
    action_primary_guid: action.guid,
    action_secondary_guid: second.guid,
  });
  const provider = await client.post('/v1/providers', { provider: 'openai', key: 'sk-walk' });
  const model = await client.post('/v1/models', { provider: provider.body.guid, name: 'gpt-walk' });
  const library = await client.post('/v1/contexts', { name: 'walk', description: 'walk' });
  const document = await client.post(`/v1/contexts/${library.body.guid}/documents`, { content: 'walk text' });
  const source = await client.post(`/v1/contexts/${library.body.guid}/context_sources`, {
    url: 'https://files.example.com/walk.txt',
  });
  const skill = await client.post('/v1/skills', { name: 'walk', type: 'calculator' });
  const workflow = await client.post('/v1/workflows', { name: 'walk', app });
  const file = await client.post('/v1/files/upload', { data: Buffer.from('walk').toString('base64') });
  const webhook = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/walk', events: ['*'] });
  const traceId = randomBytes(16).toString('hex');
  const start = BigInt(Date.now()) * 1_000_000n;
  const span = {
    traceId,
    spanId: randomBytes(8).toString('hex'),
    name: 'walk',
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 1_000_000n),
  };
  await client.post('/v1/otel/v1/traces', { resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
  const found: Resources = {
    workspace: client.workspaceGuid,
    app,
    action: action.guid,
    data: run.body.data_guid,
    feedback: feedback.body.guid ?? feedback.body.id,
    session: session.body.guid,
    experiment: experiment.body.guid,
    provider: provider.body.guid,
    model: model.body.guid,
    context: library.body.guid,
    document: document.body.docs?.[0],
    source: source.body.guid,
    skill: skill.body.guid,
    workflow: workflow.body.guid,
    file: new URL(file.body.url).pathname.split('/').at(-1)!,
    webhook: webhook.body.guid,
    trace: (await client.get(`/v1/traces/${traceId}`)).body.trace_id,
  };
  for (const [kind, guid] of Object.entries(found)) {
    if (typeof guid !== 'string') throw new Error(`the walk could not create its ${kind}`);
  }
  return found;
}

/** The resource a path parameter names, by the collection before it (`/contexts/{contextGuid}`). */
const kindOfCollection: Record<string, string> = {
  apps: 'app',
  actions: 'action',
  data: 'data',
  feedback: 'feedback',
  sessions: 'session',
  experiments: 'experiment',
  providers: 'provider',
  provider: 'provider',
  models: 'model',
  contexts: 'context',
  webhooks: 'webhook',
  traces: 'trace',
  context: 'context',
  documents: 'document',
  context_sources: 'source',
  skills: 'skill',
  workflows: 'workflow',
  workspace: 'workspace',
  files: 'file',
};

/** The path with every parameter filled: a resource of `resources`, an unknown GUID, or `override`. */
export function fillPath(path: string, resources: Resources, override?: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      if (!segment.startsWith('{')) return segment;
      if (override !== undefined) return override;
      const parameter = segment.slice(1, -1);
      const kind = parameter === 'dataGuid' ? 'data' : kindOfCollection[segments[index - 1] ?? ''];
      return (kind && resources[kind]) ?? unknownGuid;
    })
    .join('/');
}

/** A value for a field, named like the resource it refers to when it holds a GUID. */
function guidFor(name: string, resources: Resources): string {
  const kind = Object.keys(resources).find((each) => name.toLowerCase().startsWith(each));
  return (kind && resources[kind]) ?? unknownGuid;
}

/** A body that passes the schema where it can: required properties filled with plain values. */
export function exampleOf(schema: Schema, resources: Resources, name = '', depth = 0): unknown {
  if (!schema || depth > 8) return undefined;
  const options = schema.anyOf ?? schema.oneOf;
  if (options)
    return exampleOf(
      options.find((option: Schema) => option.type !== 'null') ?? options[0],
      resources,
      name,
      depth + 1,
    );
  if (schema.allOf) return exampleOf(schema.allOf[0], resources, name, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      // A body of optional fields must usually name one (an update): the first one is given.
      const required: string[] = schema.required?.length
        ? schema.required
        : Object.keys(schema.properties ?? {}).slice(0, 1);
      for (const property of required) {
        value[property] = exampleOf(schema.properties?.[property], resources, property, depth + 1);
      }
      return value;
    }
    case 'array':
      return schema.minItems ? [exampleOf(schema.items, resources, name, depth + 1)] : [];
    case 'string':
      if (schema.format === 'uuid') return guidFor(name, resources);
      if (schema.format === 'uri') return 'https://files.example.com/walk.txt';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    default:
      return 'x';
  }
}

/** The top-level properties of a body schema of one JSON type. */
export function propertiesOfType(schema: Schema, types: string[]): string[] {
  const object = schema?.anyOf?.find((option: Schema) => option.type === 'object') ?? schema;
  return Object.entries<Schema>(object?.properties ?? {})
    .filter(([, property]) => {
      const candidates = property.anyOf ?? property.oneOf ?? [property];
      return candidates.some((candidate: Schema) => types.includes(candidate.type));
    })
    .map(([name]) => name);
}
