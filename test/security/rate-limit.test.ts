import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  clientFor,
  newWorkspace,
  request,
  startTestApp,
  type TestApp,
} from '../helpers/test-app.js';

// Per-workspace rate limits: 429 with Retry-After, one budget for all of a workspace's keys (a probe
// minted 4 keys and made 20 of 20 requests at a limit of 5 a minute), a workspace's own limit set
// through the admin API, and on several nodes (Redis) one count for all of them.

const adminToken = 'admin-token-for-rate-limits';
let test: TestApp;
beforeAll(async () => {
  test = await startTestApp({ LECTERN_RATE_LIMIT_PER_MINUTE: '5', LECTERN_ADMIN_TOKEN: adminToken });
});
afterAll(() => test.close());

async function statuses(client: Client, count: number) {
  const answers = [];
  for (let index = 0; index < count; index++) answers.push(await client.get('/v1/apps'));
  return answers;
}

describe('rate limits', () => {
  it('answers 429 with Retry-After past the limit, one budget per workspace whatever its keys', async () => {
    const client = await newWorkspace(test);
    const answers = await statuses(client, 6);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = answers.at(-1)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.message).toMatch(/5 requests a minute for this workspace/);

    // A second key of the same workspace draws on the same budget; another workspace has its own.
    const second = await request(
      test.app,
      'POST',
      `/admin/v1/workspaces/${client.workspaceGuid}/api_keys`,
      undefined,
      {
        authorization: `Bearer ${adminToken}`,
      },
    );
    expect(second.status).toBe(201);
    const other = clientFor(test.app, second.body.api_key, client.workspaceGuid);
    expect((await other.get('/v1/apps')).status).toBe(429);
    expect((await (await newWorkspace(test)).get('/v1/apps')).status).toBe(200);
  });

  it('counts MCP calls in the same budget, and refuses a JSON-RPC batch without running it', async () => {
    const client = await newWorkspace(test);
    const mcp = (body: unknown) =>
      request(test.app, 'POST', '/mcp', body, {
        authorization: `Bearer ${client.apiKey}`,
        accept: 'application/json, text/event-stream',
      });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'probe', version: '1' },
      },
    };
    const batch = await mcp(Array.from({ length: 20 }, (_, index) => ({ ...initialize, id: index })));
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({ code: -32600 });
    const answers = [
      ...(await statuses(client, 2)),
      await mcp(initialize),
      await mcp(initialize),
      await mcp(initialize),
    ];
    // The batch counted once; then two of /v1 and three of /mcp reach the limit of 5.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429]);
    expect((await client.get('/v1/apps')).status).toBe(429);
  });

  it("uses a workspace's own limit, and 0 turns it off", async () => {
    const client = await newWorkspace(test);
    const setLimit = (limit: number | null) =>
      request(
        test.app,
        'PUT',
        `/admin/v1/workspaces/${client.workspaceGuid}/settings`,
        { rate_limit_per_minute: limit },
        {
          authorization: `Bearer ${adminToken}`,
        },
      );
    const set = await setLimit(2);
    expect(set.status).toBe(200);
    expect(set.body.settings.rate_limit_per_minute).toBe(2);
    expect((await statuses(client, 3)).map((answer) => answer.status)).toEqual([200, 200, 429]);
    await setLimit(0);
    expect((await statuses(client, 8)).every((answer) => answer.status === 200)).toBe(true);
    expect((await setLimit(-1)).status).toBe(400);
  });

  it.runIf(process.env.REDIS_URL)('counts one budget across nodes sharing Redis', async () => {
    const other = await startTestApp({ LECTERN_RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const client = await newWorkspace(test);
      const onOther = clientFor(other.app, client.apiKey, client.workspaceGuid);
      const first = await statuses(client, 3);
      const second = await statuses(onOther, 3);
      expect([...first, ...second].map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await other.close();
    }
  });
});
