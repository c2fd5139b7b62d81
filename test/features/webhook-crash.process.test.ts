import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createTextAction, keyedCaller, serve } from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

// At least once, in order, across a crash (docs/webhooks.md#delivery): the service is killed while
// a delivery is in flight; started again, it sends that delivery again under the same webhook-id,
// then the ones behind it, and none is lost.
const apiKey = 'lec_webhook_crash_key_0123456789abcdefghijk';
const processEnvironment = useProcessEnvironment({
  LECTERN_INIT_API_KEY: apiKey,
  LECTERN_OUTBOUND_ALLOW: '127.0.0.1',
});
const call = keyedCaller(apiKey);

it('sends every deploy after a kill -9 mid-delivery, the one in flight again under its id, in order', async () => {
  const received: { id: string; version: number }[] = [];
  // The first request is held unanswered, as a slow receiver would: the service dies meanwhile.
  let held: ServerResponse | undefined;
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), version: JSON.parse(body).data.version });
      if (received.length === 1) held = response;
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const first = await serve(processEnvironment.values);
  let second: Awaited<ReturnType<typeof serve>> | undefined;
  try {
    const action = await createTextAction(call, first.baseUrl, {
      app: 'hooks',
      name: 'hooked',
      model: 'mock/echo',
    });
    await call(first.baseUrl, 'PUT', `/v1/actions/${action}`, { prompt: 'second {{text}}' });
    const webhook = await call(first.baseUrl, 'POST', '/v1/webhooks', { url, events: ['action.deployed'] });
    expect(webhook.status).toBe(201);
    const deploys = 6;
    for (let index = 0; index < deploys; index += 1) {
      const deployed = await call(first.baseUrl, 'POST', `/v1/actions/${action}/deploy`, {
        environment: 'production',
        version: (index % 2) + 1,
      });
      expect(deployed.status).toBe(200);
    }
    await eventually(async () => held ?? undefined);
    await first.kill();
    held?.destroy();

    second = await serve(processEnvironment.values);
    const ids = await eventually(async () => {
      const unique = [...new Set(received.map((each) => each.id))];
      return unique.length === deploys ? unique : undefined;
    }, 30_000);
    // The first delivery came twice, under one id; every version in the order of the deploys.
    expect(received[1]!.id).toBe(received[0]!.id);
    expect(ids.map((id) => received.find((each) => each.id === id)!.version)).toEqual([1, 2, 1, 2, 1, 2]);
    const log = await call(second.baseUrl, 'GET', `/v1/webhooks/${webhook.body.guid}/deliveries`);
    expect(log.body.data.map((each: { status: string }) => each.status)).toEqual(
      Array(deploys).fill('succeeded'),
    );
  } finally {
    await second?.stop();
    await first.stop();
    receiver.close();
  }
}, 90_000);
