import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChatUpstream, startChatUpstream } from './helpers/chat-upstream.js';
import { runShellScript } from './helpers/shell-script.js';
import { createApp, eventually, listen, useTestWorkspace } from './helpers/test-app.js';

// docs/traces.md as a newcomer follows it: the variables of "Your first trace in five minutes" set
// as written (the address and key made this service's), then the "A Node app" program run as
// written in a process of its own, its OpenAI client pointed at a local OpenAI-compatible server.
const context = useTestWorkspace();
let address = '';
let upstream: ChatUpstream;
beforeAll(async () => {
  address = await listen(context.test);
  upstream = await startChatUpstream();
});
afterAll(() => upstream.close());

const projectRoot = path.resolve(import.meta.dirname, '..');
const guide = () => readFileSync(path.join(projectRoot, 'docs/traces.md'), 'utf8');

/** The first fenced block of `language` after the heading `heading`. */
function blockAfter(heading: string, language: string): string {
  const text = guide();
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(text.slice(start));
  expect(block, `${heading}: a ${language} block`).not.toBeNull();
  return block![1]!.replace(/^ {3}/gm, '');
}

it('follows "Your first trace in five minutes" with the Node app: its call is a generation of the version it names', async () => {
  const { client } = context;
  // What the guide's program names: the Action support-reply at version 3.
  const app = await createApp(client, 'Support');
  const created = await client.post('/v1/actions/create', {
    app,
    name: 'Support reply',
    slug: 'support-reply',
    model: 'mock/echo',
    prompt: 'Answer: {{question}}',
  });
  expect(created.status).toBe(201);
  for (const prompt of ['Answer kindly: {{question}}', 'Answer briefly: {{question}}']) {
    expect((await client.put(`/v1/actions/${created.body.guid}`, { prompt })).status).toBe(200);
  }

  const variables = blockAfter('## Your first trace in five minutes', 'sh')
    .replace('http://127.0.0.1:4000', address)
    .replace('<your key>', client.apiKey);
  const program = blockAfter('## A Node app', 'js');
  // The install line names every package the program imports, and the file name it says runs it.
  const install = blockAfter('## A Node app', 'sh');
  const imported = [...program.matchAll(/from '([^']+)'/g)].map(([, name]) => name!);
  for (const name of imported) expect(install.split(/[\s\\]+/), name).toContain(name);
  const fileName = /Save the program as `([^`]+)`/.exec(guide())?.[1];
  expect(fileName).toBe('app.mjs');
  // Inside the checkout, so that its imports resolve to this project's node_modules.
  const directory = path.join(projectRoot, 'test-output', `traces-walkthrough-${randomUUID()}`);
  mkdirSync(directory, { recursive: true });
  try {
    writeFileSync(path.join(directory, fileName!), program);
    await runShellScript(
      `${variables}\nexec node ${JSON.stringify(path.join(directory, fileName!))}`,
      projectRoot,
      {
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        OPENAI_API_KEY: 'sk-walkthrough',
      },
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }

  // The trace is listed under its root span's name and service…
  const listed = await eventually(async () => {
    const traces = await client.get('/v1/traces?name=answer%20ticket');
    return traces.body.data?.length ? traces.body.data : undefined;
  });
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ service_name: 'support-bot', span_count: 2, status: expect.any(String) });
  // …and its model call is a generation of support-reply version 3, with its messages and cost.
  const trace = await client.get(`/v1/traces/${listed[0].trace_id}`);
  const call = trace.body.spans.find((span: { data_guid: string | null }) => span.data_guid);
  const generation = (await client.get(`/v1/data/${call.data_guid}`)).body;
  expect(generation).toMatchObject({
    source: 'otel',
    action: created.body.guid,
    version: 3,
    model: 'gpt-4o-mini',
    output: 'echo: Where is my parcel?',
    trace_id: listed[0].trace_id,
  });
  expect(generation.cost.generation).toBeGreaterThan(0);
}, 60_000);
