import { expect } from 'vitest';
import { type Client, eventually } from './test-app.js';

/** Starts an evaluation (`POST /v1/evaluations`) and answers it once it has ended with SUCCESS. */
export async function evaluate(client: Client, body: Record<string, unknown>) {
  const started = await client.post('/v1/evaluations', body);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return eventually(async () => {
    const answer = await client.get(`/v1/evaluations/${started.body.guid}`);
    return answer.body.status === 'SUCCESS' ? answer.body : undefined;
  }, 30_000);
}
