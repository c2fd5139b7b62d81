import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startCpuBurners } from '../test/helpers/busy.js';
import { benchApiKey, startBenchLectern, startGateway, startUpstream } from './lectern-server.js';
import { luaScript, wrk } from './wrk.js';

/**
 * What storing the gateway's log costs the service (issue 48). For each build: a service, an Action,
 * and `lectern gateway` in front of a local OpenAI-compatible server; `wrk -t1 -c32` POSTs a small
 * chat completion through the gateway for BENCH_GATEWAY_SECONDS (10), and the log is read until it
 * has drained. Prints the service's CPU time per stored record (its whole process, the embedded
 * database's thread included, read from /proc) and the records it stored a second, from the start of
 * the load to the last record.
 *
 * Builds, alternating within each of BENCH_ROUNDS (2) rounds: `--baseline DIR` (another checkout's
 * build, such as the one before gateway traces), this build with `LECTERN_RUN_TRACES=false`, and this
 * build as it ships. `BENCH_BURNERS=N` runs every load beside N CPU burners (processes that spin, as
 * a build beside the service would). Needs Debian's `wrk`.
 */
const seconds = Number(process.env.BENCH_GATEWAY_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const burnerCount = Number(process.env.BENCH_BURNERS ?? 0);
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** User and system CPU seconds of a process (all its threads) or of one thread. */
function cpuSeconds(pid: number, thread?: number): number {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** The CPU seconds of the process and of its main thread (the request thread; its id is the pid). */
function cpuNow(pid: number) {
  return { all: cpuSeconds(pid), main: cpuSeconds(pid, pid) };
}

type Build = { name: string; root?: string; environment: Record<string, string> };

async function storedCount(serviceUrl: string, actionGuid: string): Promise<number> {
  const response = await fetch(`${serviceUrl}/v1/actions/${actionGuid}/data?limit=1`, {
    headers: { authorization: `Bearer ${benchApiKey}` },
  });
  await response.body?.cancel();
  return Number(response.headers.get('x-total-count') ?? 0);
}

async function measure(build: Build, upstreamUrl: string) {
  const service = await startBenchLectern(undefined, build.environment, build.root);
  const gateway = await startGateway(upstreamUrl, service.baseUrl, build.root);
  try {
    const app = await service.post('/v1/apps', { name: 'gateway log cost' });
    const action = await service.post('/v1/actions/create', {
      app: app.guid,
      name: 'gateway',
      model: 'mock/echo',
    });
    const script = luaScript(
      { authorization: 'Bearer sk-bench', 'x-svc-api-key': benchApiKey, 'x-svc-action-guid': action.guid },
      JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }] }),
    );
    const burners = burnerCount > 0 ? startCpuBurners(burnerCount) : undefined;
    const cpuBefore = cpuNow(service.pid);
    const started = performance.now();
    const load = await wrk(`${gateway.url}/v1/chat/completions`, script, 32, seconds).finally(() =>
      burners?.stop(),
    );
    // The log drains behind the load: read its count each half second until it stops growing for 2 s.
    let stored = await storedCount(service.baseUrl, action.guid);
    let lastGrowth = performance.now();
    let cpuAtLast = cpuNow(service.pid);
    while (performance.now() - lastGrowth < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await storedCount(service.baseUrl, action.guid);
      if (now !== stored) {
        stored = now;
        lastGrowth = performance.now();
        cpuAtLast = cpuNow(service.pid);
      }
    }
    const elapsed = (lastGrowth - started) / 1000;
    return {
      proxiedPerSecond: load.requestsPerSecond,
      proxied: load.requests,
      stored,
      storedPerSecond: stored / elapsed,
      cpuPerRecordMs: ((cpuAtLast.all - cpuBefore.all) * 1000) / stored,
      /** Of it, the request thread's; the rest is the embedded database's and the workers' threads. */
      mainThreadPerRecordMs: ((cpuAtLast.main - cpuBefore.main) * 1000) / stored,
      serviceCores: (cpuAtLast.all - cpuBefore.all) / elapsed,
    };
  } finally {
    gateway.stop();
    await service.stop();
  }
}

async function main(): Promise<void> {
  const baselineIndex = process.argv.indexOf('--baseline');
  const baseline = baselineIndex === -1 ? undefined : process.argv[baselineIndex + 1];
  const builds: Build[] = [
    ...(baseline ? [{ name: 'baseline', root: baseline, environment: {} }] : []),
    { name: 'untraced', environment: { LECTERN_RUN_TRACES: 'false' } },
    { name: 'traced', environment: {} },
  ];
  const upstream = await startUpstream();
  const results = new Map<string, Awaited<ReturnType<typeof measure>>[]>();
  console.log(
    `gateway-log-cost: wrk -t1 -c32 -d${seconds}s through the gateway, ${rounds} rounds${burnerCount ? `, beside ${burnerCount} CPU burners` : ''}`,
  );
  try {
    for (let round = 0; round < rounds; round += 1) {
      // Alternate the order, so neither build always runs on a warmer machine.
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) {
        const result = await measure(build, upstream.url);
        results.set(build.name, [...(results.get(build.name) ?? []), result]);
        console.log(
          `  round ${round + 1} ${build.name.padEnd(9)} proxied ${result.proxiedPerSecond.toFixed(0)} req/s; stored ${result.stored} of ${result.proxied}, ${result.storedPerSecond.toFixed(0)} records/s; service CPU ${result.cpuPerRecordMs.toFixed(3)} ms a record, ${result.mainThreadPerRecordMs.toFixed(3)} of it the request thread's (${result.serviceCores.toFixed(2)} cores)`,
        );
      }
    }
  } finally {
    await upstream.stop();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const reference = results.get(baseline ? 'baseline' : 'untraced')!;
  const referenceCpu = median(reference.map((each) => each.cpuPerRecordMs));
  const referenceRate = median(reference.map((each) => each.storedPerSecond));
  console.log(`  medians, against ${baseline ? 'the baseline build' : 'this build untraced'}:`);
  for (const [name, each] of results) {
    const cpu = median(each.map((result) => result.cpuPerRecordMs));
    const rate = median(each.map((result) => result.storedPerSecond));
    console.log(
      `    ${name.padEnd(9)} ${cpu.toFixed(3)} ms CPU a record (${(cpu / referenceCpu).toFixed(2)}×), ${rate.toFixed(0)} records/s (${(rate / referenceRate).toFixed(2)}×)`,
    );
  }
}

await main();
