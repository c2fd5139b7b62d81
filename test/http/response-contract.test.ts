import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { registerResponseContract } from '../../src/http/response-contract.js';
import { request, useTestWorkspace } from '../helpers/test-app.js';

// Every route declares its answers; with checking on (as the whole suite runs), an answer that
// differs from its declaration fails loudly instead of reaching a client that was promised another.

const apps: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appWith(check: boolean, answer: unknown) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  apps.push(app);
  app.setValidatorCompiler(validatorCompiler);
  registerResponseContract(app, check);
  registerErrorHandling(app);
  app.get(
    '/thing',
    { schema: { tags: ['things'], response: { 200: z.strictObject({ name: z.string() }) } } },
    async () => answer as { name: string },
  );
  await app.ready();
  return app;
}

describe('the response contract', () => {
  it('sends an answer that matches its schema as it is', async () => {
    const app = await appWith(true, { name: 'kept' });
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'kept' });
  });

  it('fails an answer with a wrong or an undeclared field, naming it', async () => {
    for (const answer of [{ name: 42 }, { name: 'x', secret: 'leaked' }]) {
      const app = await appWith(true, answer);
      const response = await app.inject({ method: 'GET', url: '/thing' });
      expect(response.statusCode).toBe(500);
      expect(response.json().error.code).toBe('response_mismatch');
      expect(response.json().error.message).toContain('GET /thing');
    }
  });

  it('checks nothing when checking is off (production): the answer goes out unchanged', async () => {
    const app = await appWith(false, { name: 'x', extra: true });
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'x', extra: true });
  });

  it('refuses to start a route of the API that declares no answer', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    apps.push(app);
    registerResponseContract(app, true);
    expect(() => app.get('/untyped', { schema: { tags: ['things'] } }, async () => ({}))).toThrow(
      /GET \/untyped declares no response schema/,
    );
  });
});

const context = useTestWorkspace();

describe('the OpenAPI document', () => {
  it('is checked in the test suite', () => {
    expect(context.test.platform.config.checkResponses).toBe(true);
  });

  it('declares a success answer and the error body for every documented route', async () => {
    const document = (await request(context.test.app, 'GET', '/openapi.json')).body;
    const undeclared: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const statuses = Object.keys(operation.responses ?? {});
        const declared = statuses.some((status) => /^[2-5]\d\d$/.test(status));
        const errors = statuses.includes('4XX') && statuses.includes('5XX');
        if (!declared || !errors) undeclared.push(`${method.toUpperCase()} ${path}: ${statuses.join(', ')}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('names its records once, as components, the error body with its field among them', async () => {
    const document = (await request(context.test.app, 'GET', '/openapi.json')).body;
    const error = document.paths['/v1/apps'].post.responses['4XX'].content['application/json'].schema;
    expect(error).toEqual({ $ref: '#/components/schemas/Error' });
    expect(document.components.schemas.Error.properties.error.properties).toHaveProperty('field');
    const created = document.paths['/v1/actions/create'].post.responses['201'].content['application/json'];
    expect(created.schema).toEqual({ $ref: '#/components/schemas/Action' });
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Action', 'Generation', 'Provider', 'ProviderKind', 'Context']),
    );
    // Answers are only read: no written form of them is listed unless a route takes one.
    expect(Object.keys(document.components.schemas).filter((name) => name.endsWith('Input'))).toEqual([]);
  });
});
