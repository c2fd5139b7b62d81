import { Lectern } from '@lectern/client';
import { afterAll, expect, it } from 'vitest';
import { keyedCaller, type ServingProcess, serve } from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

// A deploy made through one api node reaches clients connected to another: the nodes hear it over
// Redis publish/subscribe (PostgreSQL + Redis, CI's second pass).
const apiKey = 'lec_deploy_push_nodes_key_0123456789abcdef';
const processEnvironment = useProcessEnvironment({
  LECTERN_INIT_API_KEY: apiKey,
  LECTERN_SECRET: 'deploy-push-shared-secret-0123456789abcdef',
});
const call = keyedCaller(apiKey);
const nodes: ServingProcess[] = [];
const clients: Lectern[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(nodes.map((node) => node.stop()));
});

it('pushes a deploy made on one node to the clients of another', async () => {
  nodes.push(await serve(processEnvironment.values, ['--role', 'api']));
  nodes.push(await serve(processEnvironment.values, ['--role', 'api']));
  const [deploying, serving] = nodes as [ServingProcess, ServingProcess];
  const app = await call(deploying.baseUrl, 'POST', '/v1/apps', { name: 'push across nodes' });
  const action = await call(deploying.baseUrl, 'POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'across',
    slug: 'across',
    model: 'mock/echo',
    prompt: 'first {{x}}',
  });
  await call(deploying.baseUrl, 'PUT', `/v1/actions/${action.body.guid}`, { prompt: 'second {{x}}' });
  for (let index = 0; index < 5; index += 1) {
    clients.push(new Lectern({ baseUrl: serving.baseUrl, apiKey, prompts: { ttlMs: 3_600_000 } }));
  }
  for (const client of clients) expect((await client.prompts.get('across')).version).toBe(1);
  await eventually(async () => (clients.every((client) => client.prompts.subscribed) ? true : undefined));

  await call(deploying.baseUrl, 'POST', `/v1/actions/${action.body.guid}/deploy`, {
    version: 2,
    environment: 'production',
  });
  await eventually(async () =>
    clients.every((client) => client.prompts.getCached('across')?.version === 2) ? true : undefined,
  );
  expect(await (await clients[0]!.prompts.get('across')).render({ x: 'y' })).toMatchObject({
    messages: [{ role: 'user', content: 'second y' }],
  });
}, 60_000);
