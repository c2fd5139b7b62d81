import { describe, expect, it } from 'vitest';
import { newWorkspace, request, useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace({ LECTERN_BODY_LIMIT_BYTES: '2000' });

function expectErrorBody(body: any, status: number, code: string) {
  expect(body.error).toMatchObject({ status, code });
  expect(typeof body.error.message).toBe('string');
  expect(body.message).toBe(body.error.message);
  expect(body.detail).toBe(body.error.message);
}

describe('HTTP conventions', () => {
  it('answers unknown routes with a JSON 404 in the error body shape', async () => {
    const response = await request(context.test.app, 'GET', '/v1/does-not-exist');
    expect(response.status).toBe(404);
    expectErrorBody(response.body, 404, 'not_found');
  });

  it('rejects a malformed GUID with 400 naming the parameter', async () => {
    const response = await context.client.get('/v1/apps/not-a-guid');
    expect(response.status).toBe(400);
    expectErrorBody(response.body, 400, 'validation_error');
    expect(response.body.message).toContain('params.guid');
  });

  it('rejects malformed JSON with 400', async () => {
    const response = await context.client.request('POST', '/v1/apps', '{"name": ', {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, 400, 'invalid_json');
  });

  it('does not echo a malformed body back in the error', async () => {
    const response = await context.client.request('POST', '/v1/providers', 'sk-secret-in-a-broken-body', {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, 400, 'invalid_json');
    expect(JSON.stringify(response.body)).not.toContain('sk-secret');
  });

  it('rejects prototype-poisoning JSON with 400, its keys written plainly or escaped', async () => {
    const poisoned = [
      '{"name":"x","__proto__":{"admin":true}}',
      '{"name":"x","\\u005f_proto__":{"admin":true}}',
      '{"name":"x","constructor":{"prototype":{"admin":true}}}',
      '{"name":"x","\\u0063onstructor":{"prototype":{"admin":true}}}',
    ];
    for (const body of poisoned) {
      const response = await context.client.request('POST', '/v1/apps', body);
      expect(response.status, body).toBe(400);
    }
  });

  it('rejects a body that is not JSON with 400', async () => {
    const response = await context.client.request('POST', '/v1/apps', 'name=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, 400, 'unsupported_content_type');
    const plain = await context.client.request('POST', '/v1/apps', 'hello', { 'content-type': 'text/plain' });
    expect(plain.status).toBe(400);
  });

  it('rejects a body over the configured limit with 413 before parsing', async () => {
    const response = await context.client.post('/v1/apps', { name: 'x'.repeat(5000) });
    expect(response.status).toBe(413);
    expectErrorBody(response.body, 413, 'payload_too_large');
  });

  it('names the offending field on validation failures', async () => {
    const response = await context.client.post('/v1/apps', { name: 42 });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('body.name');
    expect(response.body.error.field).toBe('name');
    const nested = await context.client.post('/v1/actions/create', {
      name: 'fields',
      app: 'not-a-guid',
      model: 'mock/echo',
      prompt: 'hi',
    });
    expect(nested.body.error.field).toBe('app');
    // A service's own refusal names its field the same way.
    const refused = await context.client.post('/v1/providers', { provider: 'openai-compatible' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.field).toBe('url');
    const query = await context.client.get('/v1/apps?limit=zero');
    expect(query.body.error.field).toBe('querystring.limit');
    // Errors that name no field carry none.
    const missing = await context.client.get('/v1/apps/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error).not.toHaveProperty('field');
  });

  it('answers with and without a trailing slash', async () => {
    const withSlash = await context.client.get('/v1/apps/');
    const without = await context.client.get('/v1/apps');
    expect(withSlash.status).toBe(200);
    expect(withSlash.body).toEqual(without.body);
  });

  it('accepts an empty body with a JSON content type (DELETE from older clients)', async () => {
    const created = await context.client.post('/v1/apps', { name: 'to delete' });
    const response = await context.client.request('DELETE', `/v1/apps/${created.body.guid}`, undefined, {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(200);
  });

  it('paginates with skip/limit, defaults 0 and 100, limit capped at 1000', async () => {
    const own = await newWorkspace(context.test);
    for (let index = 0; index < 5; index++) await own.post('/v1/apps', { name: `app ${index}` });
    const page = await own.get('/v1/apps?skip=1&limit=2');
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.total_count).toBe(5);
    expect(page.body.has_next_page).toBe(true);
    const last = await own.get('/v1/apps?skip=3&limit=2');
    expect(last.body.data).toHaveLength(2);
    expect(last.body.has_next_page).toBe(false);
    const all = await own.get('/v1/apps?limit=5000');
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(5);
    const names = all.body.data.map((app: { name: string }) => app.name);
    expect(new Set(names).size).toBe(5);
    for (const bad of ['skip=-1', 'limit=0', 'limit=abc']) {
      const response = await own.get(`/v1/apps?${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.body.message).toMatch(/querystring\.(skip|limit)/);
    }
  });

  it('publishes an OpenAPI document and a docs page', async () => {
    const document = await request(context.test.app, 'GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\./);
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/actions/create',
        '/v1/providers',
        '/v1/actions/{guidOrSlug}/prompt',
        '/v1/actions/result/{resultKey}',
        '/v1/feedback/{dataGuid}',
        '/v1/sessions',
        '/v1/experiments/{guid}/results',
        '/api/streamByURL',
      ]),
    );
    const docs = await request(context.test.app, 'GET', '/docs/');
    expect(docs.status).toBe(200);
    expect(String(docs.body)).toContain('<html');
  });
});
