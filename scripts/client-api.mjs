// Writes packages/client/src/api/api-types.ts: the request and answer types of every route of the
// service's /openapi.json, so the client's typed `request` cannot drift from the server's schemas.
// It serves the built service (dist/) on a scratch data directory, reads the document, and turns its
// JSON Schemas into TypeScript. `--check` writes nothing and fails when the file would change (CI).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const target = path.join(root, 'packages/client/src/api/api-types.ts');

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The OpenAPI document of the built service, served on a scratch data directory. */
async function openApiDocument() {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'lectern-openapi-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'dist/main.js'), 'serve'], {
    env: {
      ...process.env,
      LECTERN_DATA_DIR: dataDirectory,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/openapi.json`);
        if (response.ok) return await response.json();
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error('the service did not answer /openapi.json within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name) => (identifier.test(name) ? name : JSON.stringify(name));
const comment = (text, indent) =>
  text ? `${indent}/** ${String(text).replace(/\*\//g, '*\\/').replace(/\n/g, ' ')} */\n` : '';

/** A JSON Schema (the subset zod writes) as a TypeScript type. */
function typeOf(schema, indent = '') {
  if (
    schema === undefined ||
    schema === true ||
    (typeof schema === 'object' && Object.keys(schema).length === 0)
  )
    return 'unknown';
  let type = baseTypeOf(schema, indent);
  if (schema.nullable) type = `${type} | null`;
  return type;
}

function baseTypeOf(schema, indent) {
  if (schema.$ref) return `Schemas[${JSON.stringify(schema.$ref.split('/').pop())}]`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.anyOf || schema.oneOf)
    return (schema.anyOf ?? schema.oneOf).map((option) => `(${typeOf(option, indent)})`).join(' | ');
  if (schema.allOf) return schema.allOf.map((option) => `(${typeOf(option, indent)})`).join(' & ');
  if (Array.isArray(schema.type))
    return schema.type.map((type) => typeOf({ ...schema, type }, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${typeOf(schema.items, indent)}>`;
    case 'object':
    case undefined:
      if (schema.type === undefined && !schema.properties && !schema.additionalProperties) return 'unknown';
      return objectTypeOf(schema, indent);
    default:
      return 'unknown';
  }
}

function objectTypeOf(schema, indent) {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(
    ([name, property]) =>
      `${comment(property.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`,
  );
  const extra = schema.additionalProperties;
  if (extra === true || (typeof extra === 'object' && extra !== null))
    lines.push(`${inner}[field: string]: ${typeOf(extra === true ? {} : extra, inner)};`);
  else if (extra === undefined && !schema.properties) lines.push(`${inner}[field: string]: unknown;`);
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

/** What a route answers on success: the JSON of its 2xx answers, text for other media, undefined for 204. */
function answerTypeOf(responses, indent) {
  const types = [];
  for (const [status, response] of Object.entries(responses ?? {})) {
    if (!/^2/.test(status)) continue;
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) types.push('undefined');
    else if (content['application/json']) types.push(typeOf(content['application/json'].schema, indent));
    else types.push('string');
  }
  return types.length === 0 ? 'unknown' : [...new Set(types)].map((type) => `(${type})`).join(' | ');
}

function parametersOf(operation, place, indent) {
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === place);
  if (parameters.length === 0) return 'never';
  return objectTypeOf(
    {
      type: 'object',
      properties: Object.fromEntries(
        parameters.map((parameter) => [
          parameter.name,
          { ...parameter.schema, description: parameter.description },
        ]),
      ),
      required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      additionalProperties: false,
    },
    indent,
  );
}

function generate(document) {
  const out = [
    "// Generated by scripts/client-api.mjs from the service's /openapi.json: do not edit.",
    '// `npm run client:api` writes it again; CI fails when it differs from what the server declares.',
    '',
    '/** The named records of the API (`#/components/schemas`). */',
    'export interface Schemas {',
  ];
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    out.push(`${comment(schema.description, '  ')}  ${key(name)}: ${typeOf(schema, '  ')};`);
  }
  out.push(
    '}',
    '',
    '/**',
    ' * Every route, by `METHOD /path`: its path parameters, query, body and successful answer.',
    ' */',
    'export interface Routes {',
  );
  const routes = [];
  for (const [routePath, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      routes.push([`${method.toUpperCase()} ${routePath}`, operation]);
    }
  }
  routes.sort(([a], [b]) => a.localeCompare(b));
  for (const [name, operation] of routes) {
    const body = operation.requestBody?.content?.['application/json']?.schema;
    const bodyType = operation.requestBody ? (body ? typeOf(body, '    ') : 'FormData') : 'never';
    out.push(
      `${comment(operation.summary ?? operation.description, '  ')}  ${JSON.stringify(name)}: {`,
      `    path: ${parametersOf(operation, 'path', '    ')};`,
      `    query: ${parametersOf(operation, 'query', '    ')};`,
      `    body: ${bodyType};`,
      `    bodyRequired: ${operation.requestBody?.required ? 'true' : 'false'};`,
      `    answer: ${answerTypeOf(operation.responses, '    ')};`,
      '  };',
    );
  }
  out.push('}', '');
  return out.join('\n');
}

const generated = generate(await openApiDocument());
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // Missing: a difference.
  }
  if (current !== generated) {
    console.error(
      `${path.relative(root, target)} differs from the server's /openapi.json: run npm run client:api`,
    );
    process.exit(1);
  }
  console.log(`${path.relative(root, target)} matches the server's /openapi.json`);
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${path.relative(root, target)}`);
}
