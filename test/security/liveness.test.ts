import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockReplyLimit } from '../../src/llm/mock-model.js';
import { prose } from '../helpers/documents.js';
import {
  atAddress,
  createAction,
  eventually,
  listen,
  parseEvents,
  useTestWorkspace,
} from '../helpers/test-app.js';

// Findings 4 and 5 of a security probe, and the liveness guard: while one request or job works on a
// huge input, the service keeps answering. A probe asks /healthz every 50 ms. Before these fixes one
// answer waited for the whole job (19.9 s for a 1 MB Context Source, 24.7 s for a 200 KB echo); now an
// answer waits at most for one slice of work. A time bound measures the machine as much as the code
// (a loaded 2-core CI machine running every test file at once once took 1.07 s for one answer), so
// these cases hold a loose 5 s bound that still fails on any job holding the event loop, and print
// their figures; `npm run bench:liveness` measures p99 and the worst answer from another process.
// The database case below needs no time bound at all: it counts answers given during a statement.
const answerBoundMs = 5_000;

const context = useTestWorkspace({}, { startJobs: true, ownJobQueue: true });
let address: string;

beforeAll(async () => {
  address = await listen(context.test);
});

type ProbeFigures = { answers: number; worstMs: number; p99Ms: number };
type Probe = { stop(): Promise<ProbeFigures> };

/** Asks /healthz every 50 ms; `answered` (when given) hears of each answer as it comes. */
function startProbe(answered?: () => void): Probe {
  let running = true;
  const latencies: number[] = [];
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${address}/healthz`);
      await response.text();
      latencies.push(performance.now() - started);
      answered?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      latencies.sort((a, b) => a - b);
      const p99Ms = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
      return { answers: latencies.length, worstMs: latencies.at(-1) ?? 0, p99Ms };
    },
  };
}

const figures: string[] = [];
afterAll(() => {
  // The closing note's figures: how the probe fared in each large-input case.
  console.info(`liveness probe:\n${figures.join('\n')}`);
});

describe('the service stays live under large inputs', () => {
  it('keeps answering while the database runs a long statement (the database has its own thread)', async () => {
    // pg_sleep holds whatever thread runs the database for 1.5 s. Were it the request thread, no
    // answer could be given until the statement ended; here the probe gets its answers meanwhile.
    let statementDone = false;
    let answersDuringStatement = 0;
    const probe = startProbe(() => {
      if (!statementDone) answersDuringStatement += 1;
    });
    await context.test.platform.database.database.execute(sql`SELECT pg_sleep(1.5)`);
    statementDone = true;
    const { answers, worstMs } = await probe.stop();
    figures.push(
      `  1.5 s statement: /healthz ${answersDuringStatement} answers during it (${answers} in all), worst ${worstMs.toFixed(0)} ms`,
    );
    expect(answersDuringStatement).toBeGreaterThanOrEqual(3);
  });

  it('indexes a 1 MB text Context Source off the request thread, and its text is findable once INDEXED', async () => {
    const { client } = context;
    const library = await client.post('/v1/contexts', {
      name: 'large',
      description: 'one large file',
      splitterConfig: { splitter: 'sentence', chunkSize: 20_000, chunkOverlap: 0 },
    });
    const text = `${prose(1_000_000)}The zebra-striped anemometer 7781 was replaced. ${prose(10_000)}`;
    const uploaded = await client.post('/v1/files/upload', { data: Buffer.from(text).toString('base64') });
    const probe = startProbe();
    const started = performance.now();
    const added = await client.post(`/v1/contexts/${library.body.guid}/add_files`, {
      files: [uploaded.body.url],
    });
    expect(added.status).toBe(200);
    const sourceId = added.body.created[0];
    const source = await eventually(async () => {
      const found = await client.get(`/v1/contexts/${library.body.guid}/context_sources/${sourceId}`);
      return ['INDEXED', 'FAILED'].includes(found.body.indexing_status) ? found.body : undefined;
    }, 120_000);
    const elapsed = performance.now() - started;
    const { answers, worstMs, p99Ms } = await probe.stop();
    expect(source.indexing_status, JSON.stringify(source.indexing_metadata)).toBe('INDEXED');
    // Findable the moment the status says so: no wait, no retry.
    const hits = await client.post(`/v1/contexts/${library.body.guid}/search`, {
      prompt: 'zebra-striped anemometer 7781',
    });
    expect(hits.body.map((hit: { content: string }) => hit.content).join(' ')).toContain('anemometer 7781');
    figures.push(
      `  1 MB Context Source: indexed in ${(elapsed / 1000).toFixed(1)} s, ${source.indexing_metadata.chunks} chunks; /healthz ${answers} answers, p99 ${p99Ms.toFixed(0)} ms, worst ${worstMs.toFixed(0)} ms`,
    );
    expect(worstMs).toBeLessThan(answerBoundMs);
  }, 150_000);

  it('streams a mock/echo of 1 MB capped, without holding the thread', async () => {
    const { client } = context;
    const action = await createAction(client, { model: 'mock/echo', prompt: '{{text}}' });
    const probe = startProbe();
    const started = performance.now();
    const streamed = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { text: prose(1_000_000) },
      streaming: true,
    });
    expect(streamed.status).toBe(200);
    const events = parseEvents(await (await fetch(atAddress(streamed.body.streaming_url, address))).text());
    const text = events
      .filter((event) => event.event === undefined && event.data.startsWith('{'))
      .map((event) => JSON.parse(event.data).token)
      .join('');
    const elapsed = performance.now() - started;
    const { answers, worstMs, p99Ms } = await probe.stop();
    expect(events.at(-1)!.data).toBe('END_STREAM');
    expect(text.length).toBeLessThanOrEqual(mockReplyLimit);
    expect(text).toMatch(/^Turbine 0 reported/);
    figures.push(
      `  1 MB mock/echo stream: ${text.length} characters back in ${(elapsed / 1000).toFixed(1)} s; /healthz ${answers} answers, p99 ${p99Ms.toFixed(0)} ms, worst ${worstMs.toFixed(0)} ms`,
    );
    expect(worstMs).toBeLessThan(answerBoundMs);
  }, 60_000);

  it('answers two concurrent 1 MB synchronous echo runs without holding the thread', async () => {
    const { client } = context;
    const action = await createAction(client, { model: 'mock/echo', prompt: '{{text}}' });
    const probe = startProbe();
    const started = performance.now();
    const runs = await Promise.all(
      [0, 1].map(() =>
        client.post(`/v1/actions/${action.guid}/prompt`, { input: { text: prose(1_000_000) } }),
      ),
    );
    const elapsed = performance.now() - started;
    const { answers, worstMs, p99Ms } = await probe.stop();
    for (const run of runs) {
      expect(run.status).toBe(200);
      expect(run.body.msg.length).toBeLessThanOrEqual(mockReplyLimit);
    }
    figures.push(
      `  2 × 1 MB sync echo: ${(elapsed / 1000).toFixed(1)} s; /healthz ${answers} answers, p99 ${p99Ms.toFixed(0)} ms, worst ${worstMs.toFixed(0)} ms`,
    );
    expect(worstMs).toBeLessThan(answerBoundMs);
  }, 60_000);

  it('gives all the templates of one run one render budget (an Action of 500 heavy messages)', async () => {
    const { client } = context;
    const heavy = '{% for i in (1..3000) %}{{ i }}{% endfor %}';
    const action = await createAction(client, {
      model: 'mock/echo',
      prompt: 'last',
      messages: Array.from({ length: 500 }, () => ({ role: 'user', content: heavy })),
    });
    const probe = startProbe();
    const started = performance.now();
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: 'x' });
    const elapsed = performance.now() - started;
    const { answers, worstMs, p99Ms } = await probe.stop();
    expect(run.status).toBe(400);
    expect(run.body.message).toMatch(/templates of one run may render for 500 ms in all/);
    figures.push(
      `  500 heavy templates in one run: refused after ${elapsed.toFixed(0)} ms; /healthz ${answers} answers, p99 ${p99Ms.toFixed(0)} ms, worst ${worstMs.toFixed(0)} ms`,
    );
    expect(worstMs).toBeLessThan(answerBoundMs);
  }, 60_000);

  it('bounds what a render produces: a capture doubled in a loop is refused, stored nowhere', async () => {
    const { client } = context;
    for (const rounds of [22, 40]) {
      const action = await createAction(client, {
        model: 'mock/echo',
        prompt: `{% capture a %}xxxxxxxxxxxx{% endcapture %}{% for i in (1..${rounds}) %}{% capture a %}{{a}}{{a}}{% endcapture %}{% endfor %}{{a}}`,
      });
      const draft = await client.post(`/v1/actions/${action.guid}/prompt`, {
        input: {},
        draft: {
          prompt: `{% capture b %}y{% endcapture %}{% for i in (1..${rounds + 3}) %}{% capture b %}{{b}}{{b}}{% endcapture %}{% endfor %}{{b}}`,
        },
      });
      const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: {} });
      for (const refused of [run, draft]) {
        expect(refused.status, JSON.stringify(refused.body).slice(0, 300)).toBe(400);
        expect(refused.body.message).toMatch(/templates of one run may produce 10000000 characters in all/);
      }
      expect((await client.get(`/v1/actions/${action.guid}/data`)).body).toEqual([]);
    }
  });

  it('adds a 4 MB Document, split off the request thread', async () => {
    const { client } = context;
    const library = await client.post('/v1/contexts', {
      name: 'large document',
      description: 'one large text',
    });
    const probe = startProbe();
    const started = performance.now();
    const added = await client.post(`/v1/contexts/${library.body.guid}/documents`, {
      content: prose(4_000_000),
    });
    const elapsed = performance.now() - started;
    const { answers, worstMs, p99Ms } = await probe.stop();
    expect(added.status).toBe(200);
    figures.push(
      `  4 MB Document: ${added.body.docs.length} chunks stored in ${(elapsed / 1000).toFixed(1)} s; /healthz ${answers} answers, p99 ${p99Ms.toFixed(0)} ms, worst ${worstMs.toFixed(0)} ms`,
    );
    expect(worstMs).toBeLessThan(answerBoundMs);
  }, 120_000);
});
