import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirectoryInUseError, lockDataDirectory } from '../../src/platform/data-directory-lock.js';
import { lectern, serve } from '../helpers/lectern-process.js';
import { temporaryDirectory, useProcessEnvironment } from '../helpers/test-app.js';

// The probe's finding: a second `lectern serve` on the same LECTERN_DATA_DIR started, both accepted
// writes, and the next start failed with PGlite `Aborted()`: the database was lost. The embedded
// database's data directory is now locked by the process that opened it.

const processEnvironment = useProcessEnvironment();

/** The embedded database in a data dir of its own, whatever the suite's pass (no PostgreSQL, no Redis). */
function embedded(dataDirectory: string): Record<string, string> {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...rest } = processEnvironment.values;
  return { ...rest, LECTERN_DATA_DIR: dataDirectory };
}

function runToEnd(args: string[], environment: Record<string, string>) {
  const child = lectern(args, environment);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  );
}

const firstKeyOf = (output: string) =>
  /Lectern created workspace "default"[^\n]*\n\n {2}(lec_\S+)/.exec(output)?.[1];

describe('the embedded data directory lock', () => {
  it('refuses a second serve and the offline CLI on a data dir in use, naming the holder’s PID', async () => {
    const environment = embedded(temporaryDirectory());
    const first = await serve(environment);
    try {
      const second = await runToEnd(['serve'], { ...environment, PORT: '0' });
      expect(second.code).toBe(1);
      expect(second.output).toContain(`in use by another Lectern process (PID ${first.child.pid}`);
      const offline = await runToEnd(['workspace', 'create', 'sneaky'], environment);
      expect(offline.code).toBe(1);
      expect(offline.output).toContain(`PID ${first.child.pid}`);
      // The holder never noticed.
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // A clean stop released it.
    const after = await runToEnd(['migrate'], environment);
    expect(after.code).toBe(0);
  }, 120_000);

  it('takes over the lock of a process killed with kill -9, with the data intact', async () => {
    const dataDirectory = temporaryDirectory();
    const environment = embedded(dataDirectory);
    const first = await serve(environment);
    const key = firstKeyOf(first.output());
    expect(key).toBeDefined();
    await first.kill();
    const lock = JSON.parse(readFileSync(path.join(dataDirectory, 'lectern.lock'), 'utf8'));
    expect(lock.pid).toBe(first.child.pid);

    const second = await serve(environment);
    try {
      expect(second.output()).toContain(`Took over the data directory lock of PID ${first.child.pid}`);
      const apps = await fetch(`${second.baseUrl}/v1/apps`, { headers: { authorization: `Bearer ${key}` } });
      expect(apps.status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});

describe('lockDataDirectory', () => {
  const quiet = () => undefined;

  it('holds against a live holder, and takes a dead or unreadable one’s lock', async () => {
    const directory = temporaryDirectory();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(
        path.join(directory, 'lectern.lock'),
        JSON.stringify({ pid: sleeper.pid, host: (await import('node:os')).hostname(), since: 'then' }),
      );
      expect(() => lockDataDirectory(directory, quiet)).toThrow(DataDirectoryInUseError);
    } finally {
      const exited = new Promise((resolve) => sleeper.once('exit', resolve));
      sleeper.kill('SIGKILL');
      await exited;
    }
    const warnings: string[] = [];
    const taken = lockDataDirectory(directory, (message) => warnings.push(message));
    expect(warnings).toEqual([
      `Took over the data directory lock of PID ${sleeper.pid}, which is no longer running.`,
    ]);
    taken.release();

    writeFileSync(path.join(directory, 'lectern.lock'), '{"pid":');
    lockDataDirectory(directory, quiet).release();
  });

  it('refuses a second lock in one directory and releases only its own', () => {
    const directory = temporaryDirectory();
    const lock = lockDataDirectory(directory, quiet);
    expect(() => lockDataDirectory(directory, quiet)).toThrow(/in use by another Lectern process/);
    // Someone else's lock (ours was judged stale and taken over meanwhile) is left alone.
    const file = path.join(directory, 'lectern.lock');
    const foreign = JSON.stringify({ pid: 1, host: 'elsewhere', since: 'later' });
    writeFileSync(file, foreign);
    lock.release();
    expect(readFileSync(file, 'utf8')).toBe(foreign);
  });
});
