import { benchApiKey, settledLogCount, startGatewayBench } from './lectern-server.js';
import { luaScript, type WrkResult, wrk } from './wrk.js';

/**
 * The gateway against the upstream it proxies, measured with wrk (Debian's `wrk` package) as
 * `wrk -t1 -c1|c32 -d8s --latency` POSTing a small chat completion on loopback: straight to a local
 * OpenAI-compatible server, then through `lectern gateway` with logging on (each exchange stored by
 * a Lectern service), in the same run. Prints throughput and latency percentiles of both and the
 * gateway's share. BENCH_GATEWAY_SECONDS sets each run's length (8).
 */
const seconds = Number(process.env.BENCH_GATEWAY_SECONDS ?? 8);

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
      const baseline = await wrk(`${upstream.url}/chat/completions`, direct, connections, seconds);
      const candidate = await wrk(`${gateway.url}/v1/chat/completions`, through, connections, seconds);
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
