import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Idle memory and start-up of `lectern serve` on the embedded database (the built `dist/main.js`):
 * a first start (from the build's database template) and a restart on the same data directory, for
 * each size of PGlite's buffer cache (`LECTERN_PGLITE_SHARED_BUFFERS`; `default` is the service's
 * own, 32MB). Baseline measured in the same run: a bare Node process that only waits.
 * `BENCH_ROOT=DIR` measures another checkout's build the same way.
 */
const sizes = (process.env.BENCH_MEMORY_SIZES ?? '128MB,default,16MB').split(',');
const settleMs = Number(process.env.BENCH_MEMORY_SETTLE_MS ?? 3_000);
/** A second reading, once V8's memory reducer has run on the idle process (it shrinks the young generation). */
const laterMs = Number(process.env.BENCH_MEMORY_LATER_MS ?? 10_000);
/** `BENCH_ROOT=DIR`: another checkout's build (a baseline) instead of this one. */
const projectRoot = process.env.BENCH_ROOT || new URL('..', import.meta.url).pathname;

/** Resident memory of a process in MB, from /proc (Linux). */
function residentMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Math.round(Number(line?.[1] ?? 0) / 1024);
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts the service, times it to its first answer, then reads its memory once it has settled. */
async function startOnce(
  dataDirectory: string,
  size: string,
): Promise<{ firstAnswerMs: number; rssMb: number; laterRssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/main.js', 'serve'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LECTERN_DATA_DIR: dataDirectory,
      DATABASE_URL: '',
      REDIS_URL: '',
      ...(size !== 'default' && { LECTERN_PGLITE_SHARED_BUFFERS: size }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', () => reject(new Error(`serve exited: ${output}`)));
  });
  await fetch(`${address}/healthz`);
  const firstAnswerMs = performance.now() - started;
  await pause(settleMs);
  const rssMb = residentMb(child.pid!);
  await pause(Math.max(0, laterMs - settleMs));
  const laterRssMb = residentMb(child.pid!);
  await stopped(child);
  return { firstAnswerMs, rssMb, laterRssMb };
}

/** The baseline, in the same run: a bare Node HTTP server, timed to its first answer and read the same way. */
async function bareServer(): Promise<{ firstAnswerMs: number; laterRssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [
    '-e',
    "const s = require('node:http').createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', () => console.log(s.address().port))",
  ]);
  const port = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (chunk) => resolve(String(chunk).trim())),
  );
  await fetch(`http://127.0.0.1:${port}/`);
  const firstAnswerMs = performance.now() - started;
  await pause(laterMs);
  const laterRssMb = residentMb(child.pid!);
  await stopped(child);
  return { firstAnswerMs, laterRssMb };
}

const baseline = await bareServer();
const baselineMb = baseline.laterRssMb;
console.log(
  `idle memory and start-up of lectern serve on PGlite (baseline: a bare Node HTTP server, first answer ` +
    `${(baseline.firstAnswerMs / 1000).toFixed(2)} s, ${baselineMb} MB at ${laterMs / 1000} s)`,
);
for (const size of sizes) {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'lectern-bench-memory-'));
  const first = await startOnce(dataDirectory, size);
  const restart = await startOnce(dataDirectory, size);
  console.log(
    `  shared_buffers ${size}: first start ${(first.firstAnswerMs / 1000).toFixed(1)} s to the first answer, ` +
      `${first.rssMb} MB idle (${first.laterRssMb} MB at ${laterMs / 1000} s); restart ${(restart.firstAnswerMs / 1000).toFixed(1)} s, ` +
      `${restart.rssMb} MB idle (${restart.laterRssMb} MB at ${laterMs / 1000} s; ${(restart.laterRssMb / baselineMb).toFixed(1)}× the baseline's memory, ` +
      `${(restart.firstAnswerMs / baseline.firstAnswerMs).toFixed(1)}× its start)`,
  );
  rmSync(dataDirectory, { recursive: true, force: true });
}
