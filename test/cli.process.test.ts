import { describe, expect, it } from 'vitest';
import { createServices } from '../src/services.js';
import { lectern, serve as startServing } from './helpers/lectern-process.js';
import { openEmptyDatabase, request, startTestApp, useProcessEnvironment } from './helpers/test-app.js';

type Run = { code: number | null; stdout: string; stderr: string };

const processEnvironment = useProcessEnvironment();

function runToEnd(args: string[]): Promise<Run> {
  const child = lectern(args, processEnvironment.values);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

function serve(extra: Record<string, string> = {}) {
  return startServing({ ...processEnvironment.values, ...extra });
}

const status = async (baseUrl: string, key: string) =>
  (await fetch(`${baseUrl}/v1/apps`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('lectern CLI', () => {
  it('bootstraps once, prints the key, survives a restart, and manages workspaces and keys offline', async () => {
    const first = await serve();
    const key = /Lectern created workspace "default"[^\n]*\n\n {2}(lec_\S+)/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    expect(await status(first.baseUrl, key!)).toBe(200);
    expect(await status(first.baseUrl, 'lec_wrong')).toBe(401);
    expect(await first.stop()).toBe(0);

    const created = await runToEnd(['workspace', 'create', 'cli-team']);
    expect(created.code).toBe(0);
    const workspaceKey = /api key \(shown once\): (lec_\S+)/.exec(created.stdout)?.[1];
    expect(workspaceKey).toBeDefined();
    const extra = await runToEnd(['key', 'create', 'cli-team']);
    expect(extra.code).toBe(0);
    const [, extraGuid, extraKey] =
      /api key (\S+) for workspace \S+ \(shown once\): (lec_\S+)/.exec(extra.stdout) ?? [];
    const revoked = await runToEnd(['key', 'revoke', extraGuid!]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain('revoked');
    const unknown = await runToEnd(['key', 'create', 'no-such-workspace']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Workspace not found');
    const usage = await runToEnd(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: lectern');

    const second = await serve();
    expect(second.output()).not.toContain('Lectern created workspace');
    expect(await status(second.baseUrl, key!)).toBe(200);
    expect(await status(second.baseUrl, workspaceKey!)).toBe(200);
    expect(await status(second.baseUrl, extraKey!)).toBe(401);
    expect(await second.stop()).toBe(0);
  }, 120_000); // Several processes each open the embedded database: slow on a loaded machine, not wrong.
});

describe('bootstrap', () => {
  it('creates workspace "default" with the given key only on an empty database, once under concurrency', async () => {
    const empty = await openEmptyDatabase();
    const initialKey = 'lec_initial-key-for-tests-0123456789';
    const test = await startTestApp({}, empty.handle);
    try {
      const services = createServices(test.platform);
      const results = await Promise.all([1, 2, 3].map(() => services.workspaces.bootstrap(initialKey)));
      expect(results.filter((result) => result.created)).toHaveLength(1);
      const listed = await services.workspaces.listWorkspaces({ skip: 0, limit: 10 });
      expect(listed.rows.map((workspace) => workspace.name)).toEqual(['default']);
      const response = await request(test.app, 'GET', '/v1/apps', undefined, {
        authorization: `Bearer ${initialKey}`,
      });
      expect(response.status).toBe(200);
      expect((await services.workspaces.bootstrap('lec_another-key-0123456789abcdef')).created).toBe(false);
    } finally {
      await test.close();
      await empty.drop();
    }
  });
});
