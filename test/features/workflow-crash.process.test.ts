import { expect, it } from 'vitest';
import { attemptsStarted, keyedCaller, serve, slowMockText } from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

const apiKey = 'lec_workflow_crash_key_0123456789abcdefghijk';
const processEnvironment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });

const call = keyedCaller(apiKey);

it('completes a workflow run after the process is killed mid-block and started again', async () => {
  const first = await serve({ ...processEnvironment.values, LOG_LEVEL: 'debug' });
  const app = await call(first.baseUrl, 'POST', '/v1/apps', { name: 'crash' });
  const create = (name: string, model: string, prompt: string) =>
    call(first.baseUrl, 'POST', '/v1/actions/create', { app: app.body.guid, name, model, prompt });
  const writer = await create('writer', 'mock/echo', 'Notes on {{topic}}:');
  const slow = await create('slow', 'mock/slow', '{{notes}} {{filler}}');
  const workflow = await call(first.baseUrl, 'POST', '/v1/workflows', { name: 'crash', app: app.body.guid });
  const blocks = await call(first.baseUrl, 'PUT', `/v1/workflows/${workflow.body.guid}/blocks`, {
    blocks: [
      { name: 'notes', type: 'action', action: writer.body.guid, input: { topic: '{{input.topic}}' } },
      {
        name: 'long',
        type: 'action',
        action: slow.body.guid,
        input: { notes: '{{blocks.notes}}', filler: '{{input.filler}}' },
      },
      { name: 'result', type: 'output' },
    ],
  });
  expect(blocks.status).toBe(200);
  // The second block runs for about three seconds.
  const filler = slowMockText(3);
  const triggered = await call(first.baseUrl, 'POST', `/v1/workflows/${workflow.body.guid}/trigger`, {
    input: [
      { key: 'topic', value: 'glaciers' },
      { key: 'filler', value: filler },
    ],
  });
  const resultPath = `/v1/workflows/${workflow.body.guid}/result/${triggered.body.run_guid}`;
  // Killed while the second block's attempt runs (the first block's job was the first attempt).
  await eventually(async () => attemptsStarted(first, 'run-workflow-block') === 2 || undefined);
  const dataset = await call(first.baseUrl, 'GET', `${resultPath}/dataset`);
  expect(dataset.body.blocks[0].status).toBe('SUCCESS');
  expect((await call(first.baseUrl, 'GET', resultPath)).body.status).toBe('PENDING');
  await first.kill();

  const second = await serve(processEnvironment.values);
  try {
    const done = await eventually(async () => {
      const poll = await call(second.baseUrl, 'GET', resultPath);
      return poll.body.status === 'PENDING' ? undefined : poll;
    }, 45_000);
    expect(done.body).toEqual({ result: `Notes on glaciers: ${filler}`, status: 'SUCCESS' });
    // Each block stored exactly one generation, the interrupted one included.
    for (const action of [writer, slow]) {
      const data = await call(second.baseUrl, 'GET', `/v1/actions/${action.body.guid}/data`);
      expect(data.body).toHaveLength(1);
    }
  } finally {
    await second.stop();
  }
}, 90_000);
