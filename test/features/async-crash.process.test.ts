import { expect, it } from 'vitest';
import {
  attemptsStarted,
  createTextAction,
  keyedCaller,
  serve,
  slowMockText,
} from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

const apiKey = 'lec_crash_test_key_0123456789abcdefghijklmnop';
const processEnvironment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });

const call = keyedCaller(apiKey);

it('finishes an async run after the process is killed mid-job and started again', async () => {
  const first = await serve({ ...processEnvironment.values, LOG_LEVEL: 'debug' });
  const actionGuid = await createTextAction(call, first.baseUrl, {
    app: 'crash',
    name: 'slow',
    model: 'mock/slow',
  });
  // The job runs for about three seconds.
  const text = slowMockText(3);
  const queued = await call(first.baseUrl, 'POST', `/v1/actions/${actionGuid}/prompt`, {
    input: { text },
    async_mode: true,
  });
  const resultPath = new URL(queued.body.result_url).pathname;
  // Killed while the attempt runs (it has started and cannot finish for about three seconds).
  await eventually(async () => attemptsStarted(first, 'run-action') === 1 || undefined);
  expect((await call(first.baseUrl, 'GET', resultPath)).body.status).toBe('PENDING');
  await first.kill();

  const second = await serve(processEnvironment.values);
  try {
    const done = await eventually(async () => {
      const poll = await call(second.baseUrl, 'GET', resultPath);
      return poll.body.status === 'SUCCESS' ? poll.body : undefined;
    }, 45_000);
    expect(done.msg).toBe(text);
    const data = await call(second.baseUrl, 'GET', `/v1/actions/${actionGuid}/data`);
    expect(data.body).toHaveLength(1);
  } finally {
    await second.stop();
  }
}, 90_000);
