import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { benchApiKey, settledLogCount, startGatewayBench } from './lectern-server.js';

/**
 * The gateway against the upstream it proxies, measured with wrk (Debian's `wrk` package) as
 * `wrk -t1 -c1|c32 -d8s --latency` POSTing a small chat completion on loopback: straight to a local
 * OpenAI-compatible server, then through `lectern gateway` with logging on (each exchange stored by
 * a Lectern service), in the same run. Prints throughput and latency percentiles of both and the
 * gateway's share. BENCH_GATEWAY_SECONDS sets each run's length (8).
 */
const seconds = Number(process.env.BENCH_GATEWAY_SECONDS ?? 8);
const run = promisify(execFile);

type WrkResult = { requests: number; requestsPerSecond: number; p50: number; p99: number; errors: number };

/** Milliseconds from wrk's `1.23ms` / `456.00us` / `1.2s`. */
function milliseconds(text: string): number {
  const [, value, unit] = /([\d.]+)(us|ms|s)/.exec(text) ?? [];
  const number = Number(value);
  return unit === 'us' ? number / 1000 : unit === 's' ? number * 1000 : number;
}

async function wrk(url: string, script: string, connections: number): Promise<WrkResult> {
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

function luaScript(headers: Record<string, string>, body: string): string {
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

async function main(): Promise<void> {
  const { upstream, service, action, gateway, stop } = await startGatewayBench();
  try {
    const body = JSON.stringify({
      model: 'bench-model',
      messages: [{ role: 'user', content: 'Say hello.' }],
    });
    const direct = luaScript({ authorization: 'Bearer sk-bench' }, body);
    const through = luaScript(
      { authorization: 'Bearer sk-bench', 'x-svc-api-key': benchApiKey, 'x-svc-action-guid': action.guid },
      body,
    );
    const before = await settledLogCount(service.baseUrl, action.guid);
    console.log(`gateway-wrk: wrk -t1 -d${seconds}s --latency, POST of a small chat completion, logging on`);
    let sent = 0;
    for (const connections of [1, 32]) {
      const baseline = await wrk(`${upstream.url}/chat/completions`, direct, connections);
      const candidate = await wrk(`${gateway.url}/v1/chat/completions`, through, connections);
      sent += candidate.requests;
      const row = (name: string, result: WrkResult) =>
        `    ${name.padEnd(8)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(3)} ms  p99 ${result.p99.toFixed(3)} ms  (${result.errors} errors)`;
      console.log(`  c${connections}:`);
      console.log(row('direct', baseline));
      console.log(row('gateway', candidate));
      console.log(
        `    overhead p50 +${(candidate.p50 - baseline.p50).toFixed(3)} ms; throughput ${(candidate.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}× direct`,
      );
    }
    const logged = (await settledLogCount(service.baseUrl, action.guid)) - before;
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    const dropped = [...metrics.matchAll(/lectern_gateway_logs_dropped_total\{reason="(\w+)"\} (\d+)/g)]
      .map(([, reason, count]) => `${reason} ${count}`)
      .join(', ');
    console.log(
      `  logged to the service: ${logged} of ${sent} proxied interactions; dropped: ${dropped || 'none'}`,
    );
  } finally {
    await stop();
  }
}

await main();
