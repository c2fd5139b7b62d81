import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lectern } from './helpers/lectern-process.js';
import { createApp, listen, temporaryDirectory, useTestWorkspace } from './helpers/test-app.js';

// `lectern prompts pull|push` and `lectern eval --gate` (docs/prompts-as-code.md#prompts-as-files),
// run as a CI job runs them: the built CLI against a listening service.
const context = useTestWorkspace({}, { startJobs: true });
let address = '';
beforeAll(async () => {
  address = await listen(context.test);
});

type Run = { code: number | null; stdout: string; stderr: string };

function cli(args: string[], apiKey = context.client.apiKey): Promise<Run> {
  const child = lectern(args, {
    PATH: process.env.PATH ?? '',
    LECTERN_URL: address,
    LECTERN_API_KEY: apiKey,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const read = (directory: string, file: string) => readFileSync(path.join(directory, file), 'utf8');

async function actionNamed(slug: string) {
  return (await context.client.get(`/v1/actions/${slug}`)).body;
}

describe('prompts as files', () => {
  it('pulls every Action and snippet into files, and a push after a pull saves nothing', async () => {
    const { client } = context;
    const app = await createApp(client, 'Files');
    await client.post('/v1/snippets', {
      name: 'house-tone',
      content: 'Be warm.\nBe brief.',
      folder: 'shared',
    });
    const created = await client.post('/v1/actions/create', {
      app,
      name: 'Support reply',
      slug: 'support-reply',
      folder: 'support/email',
      model: 'mock/echo',
      model_config: { temperature: 0.2 },
      system_message: "{% include 'house-tone' %}",
      prompt: 'Answer {{question}}\n\nThanks,\n  the team\n',
    });
    expect(created.status).toBe(201);
    const directory = temporaryDirectory();
    const pulled = await cli(['prompts', 'pull', '--dir', directory]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('pulled support/email/support-reply.prompt (v1)');
    expect(read(directory, 'support/email/support-reply.prompt')).toBe(
      [
        '---',
        `app: ${app}`,
        'name: Support reply',
        'description: ""',
        'model: mock/echo',
        'model_config:',
        '  temperature: 0.2',
        'system_message: "{% include \'house-tone\' %}"',
        'deployments:',
        '  production: 1',
        '---',
        'Answer {{question}}',
        '',
        'Thanks,',
        '  the team',
        '',
        '',
      ].join('\n'),
    );
    expect(read(directory, 'shared/house-tone.snippet')).toBe(
      '---\ndescription: ""\n---\nBe warm.\nBe brief.\n',
    );
    const state = JSON.parse(read(directory, '.lectern/state.json'));
    expect(state.files['action:support-reply']).toMatchObject({
      kind: 'action',
      guid: created.body.guid,
      base_version: 1,
      path: 'support/email/support-reply.prompt',
    });

    const auditBefore = (await client.get('/v1/audit_log?limit=1')).body.total_count;
    const pushed = await cli(['prompts', 'push', '--dir', directory]);
    expect(pushed.code, pushed.stdout).toBe(0);
    expect(pushed.stdout).toContain('unchanged support/email/support-reply.prompt');
    expect(pushed.stdout).toContain('unchanged shared/house-tone.snippet');
    expect((await actionNamed('support-reply')).version).toBe(1);
    // No write request at all: the audit log, which records every change, did not grow.
    expect((await client.get('/v1/audit_log?limit=1')).body.total_count).toBe(auditBefore);
  });

  it('saves one version per changed file with base_version, plans with --dry-run, and reports a conflict', async () => {
    const { client } = context;
    const app = await createApp(client, 'Edits');
    const action = await client.post('/v1/actions/create', {
      app,
      name: 'Edited',
      slug: 'edited',
      model: 'mock/echo',
      prompt: 'One {{x}}',
    });
    const directory = temporaryDirectory();
    expect((await cli(['prompts', 'pull', '--dir', directory])).code).toBe(0);
    const file = path.join(directory, 'edited.prompt');
    writeFileSync(file, readFileSync(file, 'utf8').replace('One {{x}}', 'Two {{x}}'));

    const plan = await cli(['prompts', 'push', '--dir', directory, '--dry-run']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('would save edited.prompt (a new version after v1)');
    expect((await actionNamed('edited')).version).toBe(1);

    const pushed = await cli(['prompts', 'push', '--dir', directory]);
    expect(pushed.code, pushed.stdout).toBe(0);
    expect(pushed.stdout).toContain('saved edited.prompt (v2)');
    expect(await actionNamed('edited')).toMatchObject({
      version: 2,
      prompt: 'Two {{x}}',
      deployments: { production: 1 },
    });
    expect((await cli(['prompts', 'push', '--dir', directory])).stdout).toContain('unchanged edited.prompt');

    // Someone saves in the console; the file changes too: the push is a conflict and saves nothing.
    await client.put(`/v1/actions/${action.body.guid}`, { prompt: 'Console {{x}}' });
    writeFileSync(file, readFileSync(file, 'utf8').replace('Two {{x}}', 'Three {{x}}'));
    const conflicted = await cli(['prompts', 'push', '--dir', directory]);
    expect(conflicted.code).toBe(3);
    expect(conflicted.stdout).toMatch(/conflict edited\.prompt: .*version 3/);
    expect(await actionNamed('edited')).toMatchObject({ version: 3, prompt: 'Console {{x}}' });
  });

  it('creates new prompts and snippets, deploys what it saved with --deploy, and files a moved prompt', async () => {
    const { client } = context;
    const app = await createApp(client, 'New');
    const directory = temporaryDirectory();
    mkdirSync(path.join(directory, 'greetings'), { recursive: true });
    writeFileSync(
      path.join(directory, 'greetings', 'polite.snippet'),
      '---\ndescription: Manners\n---\nPlease and thank you.\n',
    );
    writeFileSync(
      path.join(directory, 'greetings', 'welcome.prompt'),
      `---\napp: ${app}\nname: Welcome\nmodel: mock/echo\n---\nWelcome {{name}}. {% include 'polite' %}\n`,
    );
    const pushed = await cli(['prompts', 'push', '--dir', directory, '--deploy', 'staging']);
    expect(pushed.code, pushed.stdout).toBe(0);
    expect(pushed.stdout.split('\n').filter(Boolean)).toEqual([
      'created greetings/polite.snippet (v1)',
      'created greetings/welcome.prompt (v1)',
      'deployed greetings/welcome.prompt v1 to staging',
    ]);
    const welcome = await actionNamed('welcome');
    expect(welcome).toMatchObject({
      folder: 'greetings',
      snippets: { polite: 1 },
      deployments: { staging: 1 },
    });
    const run = await client.post('/v1/actions/welcome/prompt', {
      input: { name: 'Ada' },
      environment: 'staging',
    });
    expect(run.body.msg).toContain('Welcome Ada. Please and thank you.');

    mkdirSync(path.join(directory, 'onboarding'));
    renameSync(
      path.join(directory, 'greetings', 'welcome.prompt'),
      path.join(directory, 'onboarding', 'welcome.prompt'),
    );
    const moved = await cli(['prompts', 'push', '--dir', directory]);
    expect(moved.stdout).toContain('saved onboarding/welcome.prompt (v2)');
    expect((await actionNamed('welcome')).folder).toBe('onboarding');
  });

  it('refuses broken YAML with its line, and two files with one slug, before it writes anything', async () => {
    const { client } = context;
    const app = await createApp(client, 'Broken');
    const directory = temporaryDirectory();
    writeFileSync(
      path.join(directory, 'fine.prompt'),
      `---\napp: ${app}\nname: Fine\nmodel: mock/echo\n---\nFine\n`,
    );
    writeFileSync(
      path.join(directory, 'broken.prompt'),
      `---\napp: ${app}\nname: Broken: twice\nmodel: mock/echo\n---\nBroken\n`,
    );
    const broken = await cli(['prompts', 'push', '--dir', directory]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^broken\.prompt:3: Nested mappings are not allowed/m);
    expect(broken.stdout).toContain('nothing was pushed');
    expect((await client.get('/v1/actions/fine')).status).toBe(404);

    writeFileSync(
      path.join(directory, 'broken.prompt'),
      `---\napp: ${app}\nname: Broken\nmodel: mock/echo\n---\nBroken\n`,
    );
    mkdirSync(path.join(directory, 'elsewhere'));
    writeFileSync(
      path.join(directory, 'elsewhere', 'fine.prompt'),
      `---\napp: ${app}\nname: Fine\nmodel: mock/echo\n---\nFine\n`,
    );
    const twice = await cli(['prompts', 'push', '--dir', directory]);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toContain('the slug "fine" is also elsewhere/fine.prompt');
    expect((await client.get('/v1/actions/broken')).status).toBe(404);
    expect(existsSync(path.join(directory, '.lectern', 'state.json'))).toBe(false);
  });

  it('never writes, replaces or removes anything outside --dir, symbolic links included', async () => {
    const { client } = context;
    const app = await createApp(client, 'Contained');
    await client.post('/v1/actions/create', {
      app,
      name: 'Contained reply',
      slug: 'contained-reply',
      folder: 'contained',
      model: 'mock/echo',
      prompt: 'Hi {{name}}',
    });
    const elsewhere = temporaryDirectory();
    const victim = path.join(elsewhere, 'victim.txt');
    writeFileSync(victim, 'precious');

    // A folder of the directory linked elsewhere: the pull refuses to write through it.
    const linkedFolder = temporaryDirectory();
    symlinkSync(elsewhere, path.join(linkedFolder, 'contained'));
    const throughFolder = await cli(['prompts', 'pull', '--dir', linkedFolder]);
    expect(throughFolder.code).toBe(1);
    expect(throughFolder.stderr).toMatch(/contained\/contained-reply\.prompt: .* is a symbolic link/);
    expect(throughFolder.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(elsewhere)).toEqual(['victim.txt']);

    // A file of the directory linked elsewhere: its target is not overwritten.
    const linkedFile = temporaryDirectory();
    mkdirSync(path.join(linkedFile, 'contained'));
    symlinkSync(victim, path.join(linkedFile, 'contained', 'contained-reply.prompt'));
    expect((await cli(['prompts', 'pull', '--dir', linkedFile])).code).toBe(1);
    expect(readFileSync(victim, 'utf8')).toBe('precious');

    // A tampered state file naming a file outside: nothing outside is removed.
    const tampered = temporaryDirectory();
    mkdirSync(path.join(tampered, '.lectern'));
    writeFileSync(
      path.join(tampered, '.lectern', 'state.json'),
      JSON.stringify({
        files: {
          'action:gone': {
            kind: 'action',
            guid: '00000000-0000-4000-8000-000000000000',
            base_version: 1,
            hash: 'x',
            path: path.relative(tampered, victim),
          },
        },
      }),
    );
    const removal = await cli(['prompts', 'pull', '--dir', tampered]);
    expect(removal.code).toBe(1);
    expect(removal.stderr).toContain('the path leaves the prompts directory');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('keeps a template with CRLF exact through a pull and a push; reads a BOM; refuses an alias bomb in one line', async () => {
    const { client } = context;
    const app = await createApp(client, 'Line ends');
    const created = await client.post('/v1/actions/create', {
      app,
      name: 'Windows reply',
      slug: 'windows-reply',
      model: 'mock/echo',
      prompt: 'Dear {{name}},\r\nThanks.\r\n',
    });
    expect(created.status).toBe(201);
    const directory = temporaryDirectory();
    expect((await cli(['prompts', 'pull', '--dir', directory])).code).toBe(0);
    const pushed = await cli(['prompts', 'push', '--dir', directory]);
    expect(pushed.code, pushed.stdout).toBe(0);
    expect(pushed.stdout).toContain('unchanged windows-reply.prompt');
    const after = await actionNamed('windows-reply');
    expect(after).toMatchObject({ version: 1, prompt: 'Dear {{name}},\r\nThanks.\r\n' });

    const marked = temporaryDirectory();
    writeFileSync(
      path.join(marked, 'marked.prompt'),
      `\uFEFF---\napp: ${app}\nname: Marked\nmodel: mock/echo\n---\nWith a BOM\n`,
    );
    const markedPush = await cli(['prompts', 'push', '--dir', marked]);
    expect(markedPush.code, markedPush.stdout).toBe(0);
    expect((await actionNamed('marked')).prompt).toBe('With a BOM');

    const bomb = temporaryDirectory();
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    writeFileSync(
      path.join(bomb, 'bomb.prompt'),
      `---\napp: ${app}\nname: Bomb\nmodel: mock/echo\nmodel_config:\n  ${levels.join('\n  ')}\n---\nBoom\n`,
    );
    const refused = await cli(['prompts', 'push', '--dir', bomb]);
    expect(refused.code).toBe(1);
    const output = `${refused.stdout}${refused.stderr}`;
    expect(output).toMatch(/^bomb\.prompt: the front matter cannot be read: /m);
    expect(output).not.toMatch(/\n\s+at /);
    expect((await client.get('/v1/actions/bomb')).status).toBe(404);
  });

  it('runs the release gate evaluation of a version and exits 2 when a deploy would be refused, 0 when it would pass', async () => {
    const { client } = context;
    const app = await createApp(client, 'Gated');
    const action = await client.post('/v1/actions/create', {
      app,
      name: 'Capital',
      slug: 'capital',
      model: 'mock/echo',
      prompt: '{{answer}}',
    });
    const dataset = (await client.post('/v1/datasets', { name: 'Capitals' })).body.guid;
    await client.post(`/v1/datasets/${dataset}/items`, {
      items: [
        { input: { answer: 'Paris' }, expected_output: 'Paris' },
        { input: { answer: 'Lyon' }, expected_output: 'Paris' },
      ],
    });
    const exact = (await client.post('/v1/evaluators', { name: 'Exact', type: 'exact_match' })).body.guid;
    await client.put(`/v1/actions/${action.body.guid}/gates/production`, {
      dataset,
      evaluators: [exact],
      min_mean: { [exact]: 1 },
    });
    const refused = await cli(['eval', '--action', 'capital', '--gate', 'production']);
    expect(refused.code, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stdout).toContain('Exact: mean 0.500 (95% interval');
    expect(refused.stdout).toContain('NOT met: min_mean');
    expect(refused.stdout).toContain('capital v1 does not pass the release gate of "production"');

    await client.put(`/v1/actions/${action.body.guid}`, { prompt: 'Paris' });
    const passes = await cli(['eval', '--action', 'capital', '--gate', 'production']);
    expect(passes.code, passes.stdout).toBe(0);
    expect(passes.stdout).toContain('Exact: mean 1.000');
    expect(passes.stdout).toContain('capital v2 passes the release gate of "production"');
    const deploy = await client.post(`/v1/actions/${action.body.guid}/deploy`, {
      environment: 'production',
      version: 2,
    });
    expect(deploy.status).toBe(200);

    const ungated = await cli(['eval', '--action', 'capital', '--gate', 'staging']);
    expect(ungated.code).toBe(0);
    expect(ungated.stdout).toContain('"staging" has no release gate');
    const unknown = await cli(['eval', '--action', 'no-such-action', '--gate', 'production']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Action not found');
  });
});
