import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { createApp, listen, temporaryDirectory, useTestWorkspace } from './helpers/test-app.js';

// docs/prompts-as-code.md's walkthrough, run as written: every ```sh block after a
// `<!-- walkthrough -->` line, in order, in one shell, against a live service. Only the lines that
// export LECTERN_URL and LECTERN_API_KEY are left out: the test sets them to this service and key.
const context = useTestWorkspace({}, { startJobs: true });
let address = '';
beforeAll(async () => {
  address = await listen(context.test);
});

const projectRoot = path.resolve(import.meta.dirname, '..');

function walkthroughScript(): string {
  const documentText = readFileSync(path.join(projectRoot, 'docs/prompts-as-code.md'), 'utf8');
  const blocks = [...documentText.matchAll(/<!-- walkthrough -->\n```sh\n([\s\S]*?)```/g)].map(
    (match) => match[1]!,
  );
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  return blocks
    .join('\n')
    .split('\n')
    .filter((line) => !/^export LECTERN_(URL|API_KEY)=/.test(line))
    .join('\n');
}

/** `lectern` on the PATH, as `npm link` puts it there: the built CLI of this checkout. */
function linkedCommand(): string {
  const bin = temporaryDirectory();
  const command = path.join(bin, 'lectern');
  writeFileSync(
    command,
    `#!/bin/sh\nexec "${process.execPath}" "${path.join(projectRoot, 'dist/main.js')}" "$@"\n`,
  );
  chmodSync(command, 0o755);
  return bin;
}

it('follows the walkthrough from an empty repository to a pull request the release gate refuses', async () => {
  const { client } = context;
  // What the walkthrough assumes: support-reply in the folder `support`, gated in production.
  const app = await createApp(client, 'Support');
  const action = await client.post('/v1/actions/create', {
    app,
    name: 'Support reply',
    slug: 'support-reply',
    folder: 'support',
    model: 'mock/echo',
    prompt: '{{question}}',
  });
  expect(action.status).toBe(201);
  const dataset = (await client.post('/v1/datasets', { name: 'Questions' })).body.guid;
  await client.post(`/v1/datasets/${dataset}/items`, {
    items: [{ input: { question: 'Paris' }, expected_output: 'Paris' }],
  });
  const exact = (await client.post('/v1/evaluators', { name: 'Exact', type: 'exact_match' })).body.guid;
  await client.put(`/v1/actions/${action.body.guid}/gates/production`, {
    dataset,
    evaluators: [exact],
    min_mean: { [exact]: 1 },
  });

  const workspace = temporaryDirectory();
  const run = spawn('bash', ['-e', '-c', walkthroughScript()], {
    cwd: workspace,
    env: {
      PATH: `${linkedCommand()}:${process.env.PATH}`,
      HOME: workspace,
      LECTERN_URL: address,
      LECTERN_API_KEY: client.apiKey,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
  });
  let output = '';
  run.stdout.on('data', (chunk) => (output += chunk));
  run.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => run.on('exit', resolve));
  expect(code, output).toBe(0);
  expect(output).toContain('pulled support/support-reply.prompt (v1)');
  expect(output).toContain('would save support/support-reply.prompt (a new version after v1)');
  expect(output).toContain('saved support/support-reply.prompt (v2)');
  expect(output).toContain('NOT met: min_mean');
  expect(output).toContain('the gate said no (exit 2)');
  // The pull request's version was saved and judged; nothing was deployed.
  expect((await client.get('/v1/actions/support-reply')).body).toMatchObject({
    version: 2,
    prompt: '{{question}}, in one word',
    deployments: { production: 1 },
  });
}, 60_000);
