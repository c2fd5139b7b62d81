import autocannon from 'autocannon';
import { benchApiKey, settledLogCount, startGatewayBench } from './lectern-server.js';
import { format, percentile } from './measure.js';

/**
 * The gateway's overhead (issue 6): the same chat-completions requests sent straight to a local
 * OpenAI-compatible server and through `lectern gateway` (its own process, logging ON to a Lectern
 * service), with autocannon on loopback: one connection back to back, then a fixed 1,000 requests/s,
 * non-streaming and streaming. Then a sustained BENCH_GATEWAY_SUSTAINED_RATE (5,000 requests/s by
 * default) through the gateway alone, counting how much of it reached the log. Latencies come from
 * autocannon's per-response timings (sub-millisecond; its own histogram keeps whole milliseconds).
 * The two targets alternate within each scenario.
 */
const seconds = Number(process.env.BENCH_GATEWAY_SECONDS ?? 20);
const sequentialSeconds = Math.max(5, Math.round(seconds / 2));
/**
 * autocannon paces each connection on its own timer and the timers tick together, so the load comes
 * in bursts of one request per connection: few connections keep the bursts small (at 64, a burst of
 * 64 queues for ~10 ms at the upstream alone and the figures measure the bursts, not the proxy).
 */
const rateConnections = Number(process.env.BENCH_GATEWAY_CONNECTIONS ?? 4);
/** The sustained rate through the gateway whose every interaction must reach the log. */
const sustainedRate = Number(process.env.BENCH_GATEWAY_SUSTAINED_RATE ?? 5000);

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
    if (logging) {
      // Throughput with logging: a sustained rate through the gateway, and how much of it was logged.
      const body = JSON.stringify({ model: 'bench-model', messages });
      const before = await settledLogCount(service.baseUrl, action.guid);
      const run = await load(through, body, { connections: 16, rate: sustainedRate, duration: seconds });
      const logged = (await settledLogCount(service.baseUrl, action.guid)) - before;
      console.log(
        `  non-streaming, ${sustainedRate} req/s for ${seconds} s through the gateway: ${(run.requests / seconds).toFixed(0)} req/s done, ` +
          `p50 ${format(percentile(run.samples, 0.5))}  p99 ${format(percentile(run.samples, 0.99))}, ${run.errors} errors; ` +
          // autocannon counts the answers before its stop; the requests still in flight then are logged too.
          `${logged} logged, ${run.requests - run.errors} answered before the load stopped`,
      );
    }
  } finally {
    await stop();
  }
}

await main();
