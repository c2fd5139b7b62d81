import { benchApiKey, startBenchLectern } from './lectern-server.js';
import { format, measurePair, percentile } from './measure.js';

/**
 * A three-block Workflow (two `mock/echo` Actions, then an output block) from trigger to a SUCCESS
 * result, against the baseline of the same two Actions run synchronously one after the other by the
 * client. The difference is what running blocks as durable jobs costs: a job row per block, the
 * hand-over to the next block, and the client's polling (every 2 ms here).
 */
const runs = Number(process.env.BENCH_WORKFLOW_RUNS ?? 200);
const rounds = 10;

async function main(): Promise<void> {
  const lectern = await startBenchLectern();
  try {
    const app = await lectern.post('/v1/apps', { name: 'bench' });
    const writer = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'writer',
      model: 'mock/echo',
      prompt: 'Write about {{topic}}',
    });
    const summariser = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'summariser',
      model: 'mock/echo',
      prompt: 'Summary of: {{text}}',
    });
    const workflow = await lectern.post('/v1/workflows', { name: 'bench', app: app.guid });
    await fetch(`${lectern.baseUrl}/v1/workflows/${workflow.guid}/blocks`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${benchApiKey}` },
      body: JSON.stringify({
        blocks: [
          { name: 'first', type: 'action', action: writer.guid, input: { topic: '{{input.topic}}' } },
          { name: 'second', type: 'action', action: summariser.guid, input: { text: '{{blocks.first}}' } },
          { name: 'answer', type: 'output' },
        ],
      }),
    });

    const direct = async () => {
      const first = await lectern.post<{ msg: string }>(`/v1/actions/${writer.guid}/prompt`, {
        input: { topic: 'otters' },
      });
      await lectern.post(`/v1/actions/${summariser.guid}/prompt`, { input: { text: first.msg } });
    };
    const throughWorkflow = async () => {
      const triggered = await lectern.post<{ run_guid: string }>(`/v1/workflows/${workflow.guid}/trigger`, {
        input: [{ key: 'topic', value: 'otters' }],
      });
      const resultRoute = `/v1/workflows/${workflow.guid}/result/${triggered.run_guid}`;
      for (;;) {
        const result = await lectern.get<{ status: string }>(resultRoute);
        if (result.status === 'SUCCESS') return;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };

    await measurePair(direct, throughWorkflow, { total: 20, concurrency: 1, rounds: 1 });
    const { baseline, candidate } = await measurePair(direct, throughWorkflow, {
      total: runs,
      concurrency: 1,
      rounds,
    });
    console.log(
      `workflow-latency: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, jobs ${
        process.env.REDIS_URL ? 'on BullMQ' : 'in the database'
      }, ${runs} runs each`,
    );
    for (const [label, samples] of [
      ['two sync runs (baseline)', baseline],
      ['workflow trigger → SUCCESS', candidate],
    ] as const) {
      console.log(
        `  ${label.padEnd(28)} p50 ${format(percentile(samples, 0.5))}  p95 ${format(percentile(samples, 0.95))}`,
      );
    }
    const ratio = percentile(candidate, 0.5) / percentile(baseline, 0.5);
    console.log(`  p50 ratio workflow / baseline: ${ratio.toFixed(2)}×`);
  } finally {
    await lectern.stop();
  }
}

await main();
