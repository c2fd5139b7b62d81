import { describe, expect, it } from 'vitest';
import { lectern, serve as startServing } from './helpers/lectern-process.js';
import {
  createEmptyPostgresDatabase,
  databaseUrl,
  temporaryDirectory,
  useProcessEnvironment,
} from './helpers/test-app.js';

// The first owner of a new instance (docs/security.md#people-and-roles): a setup link printed once, or the owner from
// LECTERN_INIT_OWNER_EMAIL/_PASSWORD; then people from the CLI, and the audit log's chain checked.
const processEnvironment = useProcessEnvironment();

function runToEnd(args: string[], environment: Record<string, string>) {
  const child = lectern(args, environment);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

/** A browser on the service's own (loopback) origin. */
const fromConsole = (baseUrl: string) => ({ 'content-type': 'application/json', origin: baseUrl });

describe('the first owner', () => {
  it('prints a setup link once; the link makes the owner, who signs in; the CLI adds people; the chain verifies', async () => {
    const environment = processEnvironment.values;
    const first = await startServing(environment);
    const link = /\/setup\?token=(\S+)/.exec(first.output());
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]!);
    const state = await fetch(`${first.baseUrl}/console/v1/setup?token=${encodeURIComponent(token)}`);
    expect(await state.json()).toEqual({ pending: true, owner_exists: false });
    const setup = await fetch(`${first.baseUrl}/console/v1/setup`, {
      method: 'POST',
      headers: fromConsole(first.baseUrl),
      body: JSON.stringify({
        token,
        email: 'Owner@Example.com',
        password: 'a long owner password',
        name: 'Owner',
      }),
    });
    expect(setup.status).toBe(201);
    expect((await setup.json()) as object).toMatchObject({
      role: 'owner',
      user: { email: 'owner@example.com' },
    });
    const again = await fetch(`${first.baseUrl}/console/v1/setup`, {
      method: 'POST',
      headers: fromConsole(first.baseUrl),
      body: JSON.stringify({ token, email: 'thief@example.com', password: 'another long password' }),
    });
    expect(again.status).toBe(404);
    // The used link's page tells them to sign in: no restart prints another once an owner exists.
    const used = await fetch(`${first.baseUrl}/console/v1/setup?token=${encodeURIComponent(token)}`);
    expect(await used.json()).toEqual({ pending: false, owner_exists: true });
    expect(await first.stop()).toBe(0);

    const added = await runToEnd(
      ['user', 'create', 'dev@example.com', '--workspace', 'default', '--role', 'developer'],
      environment,
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/is developer of workspace default/);
    expect(added.stdout).toMatch(/\/reset-password\?token=/);

    const second = await startServing(environment);
    expect(second.output()).not.toContain('/setup?token=');
    const signIn = await fetch(`${second.baseUrl}/console/v1/session`, {
      method: 'POST',
      headers: fromConsole(second.baseUrl),
      body: JSON.stringify({ email: 'owner@example.com', password: 'a long owner password' }),
    });
    expect(signIn.status).toBe(201);
    // The CLI's change is in the audit log, by the system.
    const cookie = String(signIn.headers.get('set-cookie')).split(';')[0]!;
    const records = await fetch(`${second.baseUrl}/v1/audit_log?action=CLI`, { headers: { cookie } });
    const cliRecords = ((await records.json()) as { data: { action: string; actor: { type: string } }[] })
      .data;
    expect(cliRecords).toEqual([
      expect.objectContaining({
        action: 'CLI user create',
        actor: expect.objectContaining({ type: 'system' }),
      }),
    ]);
    expect(await second.stop()).toBe(0);

    const verified = await runToEnd(['audit', 'verify'], environment);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/audit log intact: \d+ records chained/);
  }, 120_000);

  it('makes the owner from LECTERN_INIT_OWNER_EMAIL and _PASSWORD, printing no link', async () => {
    // An instance of its own (on PostgreSQL, a database of its own): the first test's has its owner.
    const own = databaseUrl ? await createEmptyPostgresDatabase() : undefined;
    const environment = {
      ...processEnvironment.values,
      LECTERN_DATA_DIR: temporaryDirectory(),
      LECTERN_INIT_OWNER_EMAIL: 'boss@example.com',
      LECTERN_INIT_OWNER_PASSWORD: 'the boss password here',
      ...(own && { DATABASE_URL: own.url }),
    };
    const serving = await startServing(environment);
    expect(serving.output()).not.toContain('/setup?token=');
    const signIn = await fetch(`${serving.baseUrl}/console/v1/session`, {
      method: 'POST',
      headers: fromConsole(serving.baseUrl),
      body: JSON.stringify({ email: 'boss@example.com', password: 'the boss password here' }),
    });
    expect(signIn.status).toBe(201);
    expect(((await signIn.json()) as { role: string }).role).toBe('owner');
    expect(await serving.stop()).toBe(0);
    await own?.drop();
  }, 60_000);
});
