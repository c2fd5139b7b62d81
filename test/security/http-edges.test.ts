import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { listen, request, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

// Findings 15, 16 and 17: credentials in a query string never reach the access log, a client sending
// a body over the limit always hears its 413 (never a reset), and the errors Fastify answers before
// any route have the documented error body.

const context = useTestWorkspace();
let address: string;
beforeAll(async () => {
  address = await listen(context.test);
});

/**
 * POSTs `size` bytes (of `fill`) to a route, a run route by default, declared or chunked, and
 * reports the answer or the failure.
 */
function postLarge(
  size: number,
  declared: boolean,
  target: { path: string; contentType: string; fill: number } = {
    path: `/v1/actions/${unknownGuid}/prompt`,
    contentType: 'application/json',
    fill: 32,
  },
): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const url = new URL(`${address}${target.path}`);
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': target.contentType,
          authorization: `Bearer ${context.client.apiKey}`,
          ...(declared && { 'content-length': String(size) }),
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      },
    );
    outgoing.on('error', (error) => resolve({ error: error.message }));
    const chunk = Buffer.alloc(1024 * 1024, target.fill);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) return outgoing.once('drain', write);
      }
      outgoing.end();
    };
    write();
  });
}

describe('edges of HTTP', () => {
  it('answers every 50 MB body with its 413, declared or chunked, never a reset', async () => {
    for (const declared of [true, false, true, false]) {
      const answer = await postLarge(50 * 1024 * 1024, declared);
      expect(answer.error, `declared: ${declared}`).toBeUndefined();
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body!).error.code).toBe('payload_too_large');
    }
  }, 120_000);

  it('answers a dataset import over the limit with its 413, never a reset', async () => {
    const dataset = (await context.client.post('/v1/datasets', { name: 'Too large' })).body.guid;
    // Blank lines (each skipped), so that only the size can refuse it.
    const target = {
      path: `/v1/datasets/${dataset}/items/import`,
      contentType: 'application/x-ndjson',
      fill: 10,
    };
    for (const declared of [true, false]) {
      const answer = await postLarge(50 * 1024 * 1024, declared, target);
      expect(answer.error, `declared: ${declared}`).toBeUndefined();
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body!).error.code).toBe('payload_too_large');
    }
    expect((await context.client.get(`/v1/datasets/${dataset}`)).body.item_count).toBe(0);
  }, 120_000);

  it('keeps credentials in a query string out of the access log', async () => {
    const secret = 'lec_query-secret-1234567890';
    for (const url of [
      `/v1/apps?api_key=${secret}`,
      `/v1/apps?limit=2&key=${secret}`,
      `/v1/apps?access_token=${secret}&skip=0`,
      `/v1/apps?apiKey=${secret}`,
    ]) {
      await context.client.get(url);
    }
    const access = context.test.logs.filter((line) => line.includes('request completed'));
    expect(access.some((line) => line.includes('api_key=[redacted]'))).toBe(true);
    expect(access.some((line) => line.includes('limit=2&key=[redacted]'))).toBe(true);
    expect(context.test.logs.join('\n')).not.toContain(secret);
  });

  it('answers a malformed URL and an over-long path parameter with the documented error body', async () => {
    const headers = { authorization: `Bearer ${context.client.apiKey}` };
    const malformed = await request(context.test.app, 'GET', '/v1/apps/%E0%A4%A', undefined, headers);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      error: { status: 400, code: 'invalid_url', message: expect.any(String) },
      message: malformed.body.error.message,
      detail: malformed.body.error.message,
    });
    const long = await request(context.test.app, 'GET', `/v1/apps/${'a'.repeat(600)}`, undefined, headers);
    expect(long.status).toBe(414);
    expect(long.body.error.code).toBe('uri_too_long');
    expect(long.body.message).toBe(long.body.error.message);
  });
});
