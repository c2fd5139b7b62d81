import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Lectern } from '@lectern/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/klu-sdk.js';
import { keyedCaller, type ServingProcess, serve } from '../helpers/lectern-process.js';
import { eventually, temporaryDirectory, useProcessEnvironment } from '../helpers/test-app.js';

// Prompts keep serving while Lectern is down: a `lectern serve` process is stopped for the length of
// the test, and renders from a warm cache, from a snapshot (`lectern prompts export`) and from a cache
// file keep working; generations logged meanwhile are sent once it is back.
const apiKey = 'lec_prompts_outage_key_0123456789abcdefghij';
const environment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });
const call = keyedCaller(apiKey);
const projectRoot = path.resolve(import.meta.dirname, '../..');
let lectern: ServingProcess;
let serveEnvironment: Record<string, string>;

beforeAll(async () => {
  const port = await freePort();
  serveEnvironment = {
    ...environment.values,
    PORT: String(port),
    LECTERN_BASE_URL: `http://127.0.0.1:${port}`,
  };
  lectern = await serve(serveEnvironment);
}, 60_000);
afterAll(() => lectern?.stop());

describe('prompts while the service is down', () => {
  it('renders from a warm cache, a snapshot and a cache file with 0 failures, and logs generations later', async () => {
    const app = await call(lectern.baseUrl, 'POST', '/v1/apps', { name: 'outage' });
    for (const [slug, prompt] of [
      ['greeter', 'Hello {{name}}'],
      ['summariser', 'Summarise for {{audience}}: {{text}}'],
    ]) {
      const created = await call(lectern.baseUrl, 'POST', '/v1/actions/create', {
        app: app.body.guid,
        name: slug,
        slug,
        model: 'mock/echo',
        prompt,
        system_message: 'You are terse.',
      });
      expect(created.status).toBe(201);
    }
    const folder = temporaryDirectory();
    const snapshotFile = path.join(folder, 'prompts.json');
    execFileSync(
      process.execPath,
      ['dist/main.js', 'prompts', 'export', '--url', lectern.baseUrl, '--key', apiKey, '--out', snapshotFile],
      { cwd: projectRoot, env: serveEnvironment, stdio: 'pipe' },
    );
    expect(JSON.parse(readFileSync(snapshotFile, 'utf8')).prompts).toHaveLength(2);

    const cacheFile = path.join(folder, 'cache.json');
    const options = { baseUrl: lectern.baseUrl, apiKey, maxRetries: 0, timeoutMs: 2_000 };
    // Revalidation is due on every call (1 ms), so each call during the outage tries the service.
    const warm = new Lectern({ ...options, prompts: { ttlMs: 1, cacheFile } });
    expect((await (await warm.prompts.get('greeter')).render({ name: 'Ada' })).messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hello Ada' },
    ]);
    await warm.prompts.get('summariser');
    await warm.prompts.close();

    await lectern.stop();
    const down = await fetch(`${lectern.baseUrl}/healthz`).catch(() => undefined);
    expect(down).toBeUndefined();

    const cold = new Lectern({ ...options, prompts: { snapshot: snapshotFile } });
    const restarted = new Lectern({ ...options, prompts: { cacheFile } });
    let failures = 0;
    let renders = 0;
    for (let round = 0; round < 100; round += 1) {
      for (const client of [warm, cold, restarted]) {
        try {
          const rendered = await (await client.prompts.get('summariser')).render({
            audience: 'engineers',
            text: `round ${round}`,
          });
          if (rendered.messages[1]?.content !== `Summarise for engineers: round ${round}`) failures += 1;
          const greeter = await client.prompts.get('greeter', { environment: 'production' });
          const greeting = await greeter.render('Grace');
          if (greeting.messages[1]?.content !== 'Hello Grace') failures += 1;
          renders += 2;
          client.logGeneration({
            rendered: greeting,
            input: 'Grace',
            output: `answer ${round}`,
            latency_ms: 3,
          });
        } catch {
          failures += 1;
        }
      }
    }
    expect({ failures, renders }).toEqual({ failures: 0, renders: 600 });
    // The warm client tried to revalidate and was told nothing: it served what it had.
    expect(warm.prompts.staleServed).toBeGreaterThan(0);
    await warm.flush();
    expect(warm.generationLog.sent).toBe(0);

    lectern = await serve(serveEnvironment);
    await Promise.all([warm.close(), cold.close(), restarted.close()]);
    expect(warm.generationLog.sent + cold.generationLog.sent + restarted.generationLog.sent).toBe(300);
    const logged = await eventually(async () => {
      const listed = await call(lectern.baseUrl, 'GET', '/v1/data?limit=1');
      return listed.body.total_count === 300 ? listed : undefined;
    });
    expect(logged.body.data[0]).toMatchObject({
      input: 'Grace',
      meta_data: expect.objectContaining({ prompt_version: 1, prompt_environment: 'production' }),
    });
  }, 120_000);
});
