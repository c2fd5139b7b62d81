import { Lectern, Prompt } from '@lectern/client';
import { templateEngine } from '@lectern/prompt-templates';
import { benchApiKey, startBenchLectern } from './lectern-server.js';
import { measurePair, percentile } from './measure.js';

/**
 * What the client costs (docs/performance.md), each figure against a baseline of the same run:
 * - render from cache (goal < 50 µs p50): `Prompt.render` of a typical Action version (a system
 *   message and a prompt, 3 variables, ~600 characters) against LiquidJS rendering the same two
 *   templates, already parsed;
 * - `prompts.get` from a warm cache (goal < 5 µs p50) against awaiting a Map lookup;
 * - the client's overhead on a sync run (goal < 0.2 ms p50) against raw `fetch` of the same request,
 *   on `lectern serve` in its own process, in alternating rounds.
 */
const microseconds = (milliseconds: number) => `${(milliseconds * 1000).toFixed(2)} µs`;

/** p50 of `iterations` timed calls after `warmup` untimed ones, in milliseconds. */
async function timed(call: () => Promise<unknown>, iterations: number, warmup = 2_000): Promise<number[]> {
  for (let index = 0; index < warmup; index += 1) await call();
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

const system = `You are the support assistant of {{ company }}. Answer in {{ language }}, in at most three
sentences, politely and precisely. Never promise refunds; point to the refund policy instead. If the
question is not about {{ company }}'s products, say you can only help with those.`;
const prompt = `A customer asks:\n\n{{ question }}\n\nAnswer them. {% if language == "German" %}Use the formal "Sie".{% endif %}`;
const variables = {
  company: 'Acme Widgets',
  language: 'English',
  question:
    'My widget arrived with a cracked casing. What should I do, and how long will a replacement take?',
};

const lectern = await startBenchLectern(undefined, { LECTERN_CHECK_RESPONSES: 'off' });
try {
  const app = await lectern.post('/v1/apps', { name: 'client bench' });
  const action = await lectern.post('/v1/actions/create', {
    app: app.guid,
    name: 'support',
    slug: 'support',
    model: 'mock/echo',
    system_message: system,
    prompt,
  });
  const client = new Lectern({
    baseUrl: lectern.baseUrl,
    apiKey: benchApiKey,
    prompts: { subscribe: false },
  });
  const deployed = await client.prompts.get('support');

  // Render: the client's whole path against LiquidJS alone on the same parsed templates.
  const parsed = [templateEngine.parse(system), templateEngine.parse(prompt)];
  const liquid = await timed(
    () => Promise.all(parsed.map((template) => templateEngine.render(template, variables))),
    20_000,
  );
  const render = await timed(() => deployed.render(variables), 20_000);
  console.log(
    `render from cache: p50 ${microseconds(percentile(render, 0.5))} (goal < 50 µs), p99 ${microseconds(percentile(render, 0.99))}; LiquidJS alone ${microseconds(percentile(liquid, 0.5))} (${(percentile(render, 0.5) / percentile(liquid, 0.5)).toFixed(2)}×)`,
  );

  // prompts.get warm: against awaiting a Map lookup.
  const map = new Map([['support@', new Prompt(deployed.record)]]);
  const lookup = async () => map.get('support@');
  const mapSamples = await timed(lookup, 100_000, 10_000);
  const getSamples = await timed(() => client.prompts.get('support'), 100_000, 10_000);
  console.log(
    `prompts.get warm: p50 ${microseconds(percentile(getSamples, 0.5))} (goal < 5 µs); awaited Map.get ${microseconds(percentile(mapSamples, 0.5))}`,
  );

  // A sync run: raw fetch against the client, alternating rounds on one keep-alive agent each.
  const body = JSON.stringify({ input: variables });
  const raw = async () => {
    const response = await fetch(`${lectern.baseUrl}/v1/actions/${action.guid}/prompt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${benchApiKey}`, 'content-type': 'application/json' },
      body,
    });
    if (!response.ok) throw new Error(`raw run answered ${response.status}`);
    await response.json();
  };
  const viaClient = async () => {
    await client.actions.run(action.guid, variables);
  };
  for (let index = 0; index < 200; index += 1) {
    await raw();
    await viaClient();
  }
  const pair = await measurePair(raw, viaClient, { total: 3_000, concurrency: 1, rounds: 10 });
  const overhead = percentile(pair.roundOverheads, 0.5);
  console.log(
    `sync run: raw fetch p50 ${percentile(pair.baseline, 0.5).toFixed(3)} ms, client p50 ${percentile(pair.candidate, 0.5).toFixed(3)} ms; client overhead (median of per-round p50 differences) ${overhead.toFixed(3)} ms (goal < 0.2 ms)`,
  );
  await client.close();
} finally {
  await lectern.stop();
}
