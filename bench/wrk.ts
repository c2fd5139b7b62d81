import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// wrk (Debian's `wrk` package) as the gateway benches run it: one thread, a Lua script that POSTs.

const run = promisify(execFile);

export type WrkResult = {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
};

/** Milliseconds from wrk's `1.23ms` / `456.00us` / `1.2s`. */
function milliseconds(text: string): number {
  const [, value, unit] = /([\d.]+)(us|ms|s)/.exec(text) ?? [];
  const number = Number(value);
  return unit === 'us' ? number / 1000 : unit === 's' ? number * 1000 : number;
}

export async function wrk(
  url: string,
  script: string,
  connections: number,
  seconds: number,
): Promise<WrkResult> {
  const { stdout } = await run('wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    '-s',
    script,
    url,
  ]);
  const percentile = (label: string) =>
    milliseconds(new RegExp(`^\\s+${label}%\\s+(\\S+)`, 'm').exec(stdout)?.[1] ?? '0ms');
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const socketErrors = /Socket errors: (.*)/.exec(stdout)?.[1];
  return {
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0),
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p50: percentile('50'),
    p99: percentile('99'),
    errors:
      non2xx +
      (socketErrors
        ? socketErrors
            .match(/\d+/g)!
            .map(Number)
            .reduce((a, b) => a + b, 0)
        : 0),
  };
}

export function luaScript(headers: Record<string, string>, body: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lectern-wrk-')), 'post.lua');
  const lines = [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(body)}`,
    'wrk.headers["Content-Type"] = "application/json"',
    ...Object.entries(headers).map(
      ([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`,
    ),
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
