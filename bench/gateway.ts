import autocannon from 'autocannon';
import { benchApiKey, startGatewayBench } from './lectern-server.js';
import { format, percentile } from './measure.js';

/**
 * The gateway's overhead (issue 6): the same chat-completions requests sent straight to a local
 * OpenAI-compatible server and through `lectern gateway` (its own process, logging ON to a Lectern
 * service), with autocannon on loopback: one connection back to back, then a fixed 1,000 requests/s,
 * non-streaming and streaming. Latencies come from autocannon's per-response timings (sub-millisecond;
 * its own histogram keeps whole milliseconds). The two targets alternate within each scenario.
 */
const seconds = Number(process.env.BENCH_GATEWAY_SECONDS ?? 20);
const sequentialSeconds = Math.max(5, Math.round(seconds / 2));
/**
 * autocannon paces each connection on its own timer and the timers tick together, so the load comes
 * in bursts of one request per connection: few connections keep the bursts small (at 64, a burst of
 * 64 queues for ~10 ms at the upstream alone and the figures measure the bursts, not the proxy).
 */
const rateConnections = Number(process.env.BENCH_GATEWAY_CONNECTIONS ?? 4);

type Target = { url: string; headers: Record<string, string> };

async function load(
  target: Target,
  body: string,
  options: { connections: number; rate?: number; duration: number },
) {
  const samples: number[] = [];
  let errors = 0;
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.headers },
        body,
        connections: options.connections,
        duration: options.duration,
        ...(options.rate && { overallRate: options.rate }),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance!.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode === 200) samples.push(responseTime);
    else errors += 1;
  });
  const result = await finished;
  return { samples, errors: errors + result.errors + result.timeouts, requests: result.requests.total };
}

async function main(): Promise<void> {
  const { upstream, service, action, gateway, stop } = await startGatewayBench();
  try {
    const direct: Target = {
      url: `${upstream.url}/chat/completions`,
      headers: { authorization: 'Bearer sk-bench' },
    };
    // BENCH_GATEWAY_LOGGING=off leaves out the x-svc headers: the proxy alone, for comparison.
    const logging = process.env.BENCH_GATEWAY_LOGGING !== 'off';
    const through: Target = {
      url: `${gateway.url}/v1/chat/completions`,
      headers: {
        authorization: 'Bearer sk-bench',
        ...(logging && { 'x-svc-api-key': benchApiKey, 'x-svc-action-guid': action.guid }),
      },
    };
    const messages = [
      { role: 'user', content: 'Summarise the quarterly report in three bullet points, please.' },
    ];
    console.log(
      `gateway (logging ${logging ? 'ON' : 'off'}): ${seconds} s at 1,000 requests/s, ${sequentialSeconds} s back to back; Node ${process.version}`,
    );
    for (const stream of [false, true]) {
      const body = JSON.stringify({ model: 'bench-model', messages, stream });
      // Warm both paths (JIT, keep-alive pools, the service's first batches).
      await load(direct, body, { connections: 4, duration: 2 });
      await load(through, body, { connections: 4, duration: 2 });
      for (const [label, options] of [
        ['concurrency 1', { connections: 1, duration: sequentialSeconds }],
        ['1,000 req/s', { connections: rateConnections, rate: 1000, duration: seconds }],
      ] as const) {
        const baseline = await load(direct, body, options);
        const candidate = await load(through, body, options);
        const row = (name: string, run: typeof baseline) =>
          `    ${name.padEnd(8)} p50 ${format(percentile(run.samples, 0.5))}  p99 ${format(percentile(run.samples, 0.99))}  (${run.requests} requests, ${run.errors} errors)`;
        console.log(`  ${stream ? 'streaming' : 'non-streaming'}, ${label}:`);
        console.log(row('direct', baseline));
        console.log(row('gateway', candidate));
        const overhead = (fraction: number) =>
          percentile(candidate.samples, fraction) - percentile(baseline.samples, fraction);
        console.log(`    overhead p50 ${format(overhead(0.5))}  p99 ${format(overhead(0.99))}`);
      }
    }
    // The Action's generations are a bare array; their total is in X-Total-Count.
    const logged = await fetch(`${service.baseUrl}/v1/actions/${action.guid}/data?limit=1`, {
      headers: { authorization: `Bearer ${benchApiKey}` },
    });
    console.log(`  logged to the service: ${logged.headers.get('x-total-count')} interactions`);
  } finally {
    await stop();
  }
}

await main();
