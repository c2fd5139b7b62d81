import { afterAll, expect, it } from 'vitest';
import {
  attemptsStarted,
  keyedCaller,
  type ServingProcess,
  serve,
  slowMockText,
} from '../helpers/lectern-process.js';
import { eventually, parseEvents, useProcessEnvironment } from '../helpers/test-app.js';

const apiKey = 'lec_multi_node_key_0123456789abcdefghijklmn';
// Every node has the same secret and the same public address (the load balancer's), as in production.
const processEnvironment = useProcessEnvironment({
  LECTERN_INIT_API_KEY: apiKey,
  LECTERN_SECRET: 'multi-node-shared-secret-0123456789',
  LECTERN_BASE_URL: 'http://lectern.test',
});
const call = keyedCaller(apiKey);
const nodes: ServingProcess[] = [];
afterAll(() => Promise.all(nodes.map((node) => node.stop())));

async function start(role: 'api' | 'worker'): Promise<ServingProcess> {
  const node = await serve({ ...processEnvironment.values, LOG_LEVEL: 'debug' }, ['--role', role]);
  nodes.push(node);
  return node;
}

/** A returned URL, sent to one particular node instead of the load balancer. */
const on = (node: ServingProcess, url: string) => url.replace('http://lectern.test', node.baseUrl);
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

// Several processes on one database need PostgreSQL, and the cross-node stream bus needs Redis: this
// file is collected in CI's second pass only (vitest.config.ts), against what .ci/run starts.
it('serves one deployment from two api nodes and workers sharing PostgreSQL and Redis', async () => {
  const nodeA = await start('api');
  const nodeB = await start('api');
  let worker = await start('worker');
  const app = await call(nodeA.baseUrl, 'POST', '/v1/apps', { name: 'multi-node' });
  const create = async (name: string, model: string) =>
    (
      await call(nodeA.baseUrl, 'POST', '/v1/actions/create', {
        app: app.body.guid,
        name,
        model,
        prompt: '{{text}}',
      })
    ).body.guid as string;
  const echo = await create('echo', 'mock/echo');
  const slow = await create('slow', 'mock/slow');

  // A stream made on A is read on B, once; A then refuses it too.
  const streamed = await call(nodeA.baseUrl, 'POST', `/v1/actions/${echo}/prompt`, {
    input: { text: 'tokens across nodes' },
    streaming: true,
  });
  const events = parseEvents(await (await fetch(on(nodeB, streamed.body.streaming_url))).text());
  expect(events.at(0)?.data).toBe('BEGIN_STREAM');
  expect(events.at(-1)?.data).toBe('END_STREAM');
  const text = events
    .slice(1, -1)
    .map((event) => JSON.parse(event.data).token)
    .join('');
  expect(text).toBe('tokens across nodes');
  expect((await fetch(on(nodeA, streamed.body.streaming_url))).status).toBe(410);

  // An async run queued on A (an api node runs no jobs) is run by the worker and polled on B.
  const queued = await call(nodeA.baseUrl, 'POST', `/v1/actions/${echo}/prompt`, {
    input: { text: 'run by the worker' },
    async_mode: true,
  });
  const polled = await eventually(async () => {
    const poll = await call(nodeB.baseUrl, 'GET', pathOf(queued.body.result_url));
    return poll.body.status === 'SUCCESS' ? poll.body : undefined;
  }, 20_000);
  expect(polled.msg).toBe('run by the worker');

  // A file uploaded on A is served by B through the same signed URL.
  const bytes = Buffer.from('Glaciers carve valleys over thousands of years.');
  const uploaded = await call(nodeA.baseUrl, 'POST', '/v1/files/upload', {
    data: bytes.toString('base64'),
  });
  const fetched = await fetch(on(nodeB, uploaded.body.url));
  expect(fetched.status).toBe(200);
  expect(Buffer.from(await fetched.arrayBuffer())).toEqual(bytes);

  // A Context Source made on A is processed by the worker; B searches the result.
  const library = await call(nodeA.baseUrl, 'POST', '/v1/contexts', { name: 'Ice', description: '' });
  const source = await call(nodeA.baseUrl, 'POST', `/v1/contexts/${library.body.guid}/context_sources`, {
    url: uploaded.body.url,
  });
  await eventually(async () => {
    const read = await call(
      nodeB.baseUrl,
      'GET',
      `/v1/contexts/${library.body.guid}/context_sources/${source.body.guid}`,
    );
    return read.body.indexing_status === 'INDEXED' ? true : undefined;
  }, 30_000);
  const hits = await call(nodeB.baseUrl, 'POST', `/v1/contexts/${library.body.guid}/search`, {
    prompt: 'glaciers valleys',
  });
  expect(hits.body[0].content).toContain('Glaciers carve valleys');

  // The worker is killed mid-job: a second worker takes the job over once its lock lapses.
  const words = slowMockText(3);
  const runsBefore = attemptsStarted(worker, 'run-action');
  const long = await call(nodeA.baseUrl, 'POST', `/v1/actions/${slow}/prompt`, {
    input: { text: words },
    async_mode: true,
  });
  await eventually(async () => attemptsStarted(worker, 'run-action') > runsBefore || undefined);
  await worker.kill();
  worker = await start('worker');
  const finished = await eventually(async () => {
    const poll = await call(nodeB.baseUrl, 'GET', pathOf(long.body.result_url));
    return poll.body.status === 'SUCCESS' ? poll.body : undefined;
  }, 45_000);
  expect(finished.msg).toBe(words);

  // SIGTERM on A while its stream is read: A finishes the stream (END_STREAM) before it exits.
  const draining = await call(nodeA.baseUrl, 'POST', `/v1/actions/${slow}/prompt`, {
    input: { text: 'one two three four five six seven eight' },
    streaming: true,
  });
  const reading = await fetch(on(nodeA, draining.body.streaming_url));
  const exited = nodeA.stop();
  const drained = parseEvents(await reading.text());
  expect(drained.at(-1)?.data).toBe('END_STREAM');
  expect(
    drained
      .slice(1, -1)
      .map((event) => JSON.parse(event.data).token)
      .join(''),
  ).toBe('one two three four five six seven eight');
  expect(await exited).toBe(0);
}, 180_000);
