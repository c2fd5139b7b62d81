import { benchApiKey, startBenchLectern } from './lectern-server.js';
import { format, measurePair, percentile } from './measure.js';

/**
 * Review queues (docs/review.md) against `lectern serve`: (1) `BENCH_REVIEW_ITEMS` items (10,000),
 * `BENCH_REVIEWERS` people (50) taking and reviewing them at once with `reviews_per_item: 3`, spread
 * over every node (with DATABASE_URL: two nodes on one PostgreSQL), counting items leased or reviewed
 * beyond their count and `next`'s latency against a plain read of the queue in the same run; (2) a
 * sync run of an Action two rules watch against one of an Action no rule watches, in alternating
 * rounds; (3) the agreement over the completed queue against the read of the queue.
 */
const itemCount = Number(process.env.BENCH_REVIEW_ITEMS ?? 10_000);
/** Items of the queue reviewed at a person's pace, and that pace. */
const pacedItems = Number(process.env.BENCH_REVIEW_PACED_ITEMS ?? 500);
const thinkMs = Number(process.env.BENCH_REVIEW_THINK_MS ?? 2_000);
const reviewerCount = Number(process.env.BENCH_REVIEWERS ?? 50);
const reviewsPerItem = 3;

// biome-ignore lint/suspicious/noExplicitAny: the bench reads the answers' fields it needs.
type Caller = (method: string, url: string, body?: unknown) => Promise<{ status: number; body: any }>;

function callerWith(headers: Record<string, string>): Caller {
  return async (method, url, body) => {
    const response = await fetch(url, {
      method,
      headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** A person invited to the workspace (a developer: a viewer makes no keys) who joins and makes a key of their own: a review is a person's. */
async function reviewerKey(admin: Caller, baseUrl: string, index: number): Promise<string> {
  const invited = await admin('POST', `${baseUrl}/v1/members`, {
    email: `reviewer-${index}@example.com`,
    role: 'developer',
  });
  const token = new URL(invited.body.invite_url).searchParams.get('token');
  const accepted = await fetch(`${baseUrl}/console/v1/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, name: `Reviewer ${index}`, password: `a long password ${index}` }),
  });
  const cookie = /lectern_session=[^;]*/.exec(accepted.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`accept answered ${accepted.status}: ${await accepted.text()}`);
  const key = await callerWith({ cookie })('POST', `${baseUrl}/v1/api_keys`, {
    name: 'review',
    role: 'viewer',
  });
  if (key.status !== 201) throw new Error(`api_keys answered ${key.status}: ${JSON.stringify(key.body)}`);
  return key.body.api_key;
}

type Lectern = Awaited<ReturnType<typeof startBenchLectern>>;

/** A queue of `count` new generations of the Action (logged in batches). */
async function queueOf(lectern: Lectern, action: string, count: number): Promise<string> {
  const generations: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const records = Array.from({ length: Math.min(500, count - start) }, (_, index) => ({
      action,
      version: 1,
      input: { text: `question ${start + index}` },
      output: `answer ${start + index}`,
    }));
    const logged = await lectern.post<{ data: { guid: string }[] }>('/v1/data/batch', { records });
    generations.push(...logged.data.map((each) => each.guid));
  }
  const queue = await lectern.post('/v1/review_queues', {
    name: `bench ${count}`,
    questions: [
      { key: 'correct', label: 'Correct?', type: 'boolean' },
      { key: 'tone', label: 'Tone', type: 'scale' },
    ],
    reviews_per_item: reviewsPerItem,
    blind: false,
  });
  for (let start = 0; start < generations.length; start += 1_000)
    await lectern.post(`/v1/review_queues/${queue.guid}/items`, {
      data: generations.slice(start, start + 1_000),
    });
  return queue.guid;
}

/** How many of the queue's items have more reviews than it asks for. */
async function overCount(lectern: Lectern, queue: string, count: number): Promise<number> {
  let over = 0;
  for (let skip = 0; skip < count; skip += 1_000) {
    const page = await lectern.get<{ data: { review_count: number }[] }>(
      `/v1/review_queues/${queue}/items?skip=${skip}&limit=1000`,
    );
    over += page.data.filter((item) => item.review_count > reviewsPerItem).length;
  }
  return over;
}

/** Every reviewer takes and reviews until nothing is left for them, each on a node in turn. */
async function reviewAll(options: { keys: string[]; nodes: string[]; queue: string; thinkMs: number }) {
  const { keys, nodes, queue, thinkMs } = options;
  const next: number[] = [];
  const reads: number[] = [];
  let refused = 0;
  let twice = 0;
  await Promise.all(
    keys.map(async (key, index) => {
      const call = callerWith({ authorization: `Bearer ${key}` });
      const node = nodes[index % nodes.length]!;
      const seen = new Set<string>();
      // People do not start in step.
      if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * thinkMs));
      for (let reviews = 0; ; reviews += 1) {
        const begin = performance.now();
        const leased = await call('POST', `${node}/v1/review_queues/${queue}/next`);
        next.push(performance.now() - begin);
        if (leased.status === 204) return;
        if (leased.status !== 200)
          throw new Error(`next answered ${leased.status}: ${JSON.stringify(leased.body)}`);
        const item = leased.body.item.guid;
        if (seen.has(item)) twice += 1;
        seen.add(item);
        if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + Math.random())));
        const review = await call('POST', `${node}/v1/review_queues/${queue}/items/${item}/reviews`, {
          answers: { correct: (index + reviews) % 4 !== 0, tone: 1 + ((index * 7 + reviews) % 5) },
        });
        if (review.status !== 201) refused += 1;
        if (reviews % 10 === 0) {
          const readBegin = performance.now();
          await call('GET', `${node}/v1/review_queues/${queue}`);
          reads.push(performance.now() - readBegin);
        }
      }
    }),
  );
  return { next, reads, refused, twice };
}

async function main(): Promise<void> {
  const lectern = await startBenchLectern(undefined, { LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '100000' });
  try {
    const nodes = [lectern.baseUrl];
    if (process.env.DATABASE_URL) nodes.push(await lectern.addNode());
    const admin = callerWith({ authorization: `Bearer ${benchApiKey}` });
    const app = await lectern.post('/v1/apps', { name: 'review bench' });
    const watched = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'watched',
      model: 'mock/echo',
      prompt: '{{text}}',
    });
    const unwatched = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'unwatched',
      model: 'mock/echo',
      prompt: '{{text}}',
    });

    const keys: string[] = [];
    for (let index = 0; index < reviewerCount; index += 1)
      keys.push(await reviewerKey(admin, lectern.baseUrl, index));
    const where = process.env.DATABASE_URL ? `PostgreSQL, ${nodes.length} nodes` : 'embedded PGlite';

    // (1a) At a person's pace: each reviewer reads for `thinkMs` between taking an item and answering.
    const paced = await queueOf(lectern, watched.guid, pacedItems);
    const pace = await reviewAll({ keys, nodes, queue: paced, thinkMs });
    console.log(
      `review queues: ${where}; ${reviewerCount} reviewers at once, ${reviewsPerItem} reviews an item`,
    );
    console.log(
      `  at a person's pace (${thinkMs} ms between taking an item and answering), ${pacedItems} items: next p50 ${format(percentile(pace.next, 0.5))} p95 ${format(percentile(pace.next, 0.95))} | reading the queue meanwhile p50 ${format(percentile(pace.reads, 0.5))} p95 ${format(percentile(pace.reads, 0.95))} (${(percentile(pace.next, 0.95) / percentile(pace.reads, 0.95)).toFixed(2)}×); ${await overCount(lectern, paced, pacedItems)} over their count, ${pace.refused} refused, ${pace.twice} leased twice to one person`,
    );

    // (1b) As fast as they can, over the whole queue.
    const queue = await queueOf(lectern, watched.guid, itemCount);
    const started = performance.now();
    const rush = await reviewAll({ keys, nodes, queue, thinkMs: 0 });
    const seconds = (performance.now() - started) / 1000;
    const after = await lectern.get<{ counts: Record<string, number> }>(`/v1/review_queues/${queue}`);
    console.log(
      `  as fast as they can, ${itemCount} items: ${((itemCount * reviewsPerItem) / seconds).toFixed(0)} reviews/s; completed ${after.counts.completed} of ${itemCount}; items over their count ${await overCount(lectern, queue, itemCount)}; a review refused (leased beyond need) ${rush.refused}; an item leased twice to one person ${rush.twice}; next p50 ${format(percentile(rush.next, 0.5))} p95 ${format(percentile(rush.next, 0.95))} | reading the queue meanwhile p95 ${format(percentile(rush.reads, 0.95))}`,
    );

    // (3) Agreement over the completed queue, against reading the queue.
    const agreementTimes: number[] = [];
    const queueTimes: number[] = [];
    for (let round = 0; round < 7; round += 1) {
      let begin = performance.now();
      await lectern.get(`/v1/review_queues/${queue}/agreement`);
      agreementTimes.push(performance.now() - begin);
      begin = performance.now();
      await lectern.get(`/v1/review_queues/${queue}`);
      queueTimes.push(performance.now() - begin);
    }
    const agreement = await lectern.get<{ questions: Record<string, unknown> }>(
      `/v1/review_queues/${queue}/agreement`,
    );
    console.log(
      `  agreement over ${after.counts.completed} completed items: median ${format(percentile(agreementTimes, 0.5))} (reading the queue ${format(percentile(queueTimes, 0.5))}); ${JSON.stringify(agreement.questions)}`,
    );

    // (2) A run of an Action two rules watch against one no rule watches.
    await lectern.post(`/v1/review_queues/${queue}/rules`, {
      action: watched.guid,
      when: { error: true },
      sample_rate: 1,
    });
    await lectern.post(`/v1/review_queues/${queue}/rules`, { action: watched.guid, sample_rate: 0.2 });
    const run = (action: string) => async () => {
      await lectern.post(`/v1/actions/${action}/prompt`, { input: { text: 'hello' } });
    };
    const pair = await measurePair(run(unwatched.guid), run(watched.guid), {
      total: 2_000,
      concurrency: 1,
      rounds: 20,
    });
    const roundMedian = percentile(pair.roundOverheads, 0.5);
    console.log(
      `  a sync run watched by two rules p50 ${format(percentile(pair.candidate, 0.5))} against unwatched ${format(percentile(pair.baseline, 0.5))}: ${format(percentile(pair.candidate, 0.5) - percentile(pair.baseline, 0.5))} (median of 20 rounds' difference ${format(roundMedian)})`,
    );
  } catch (error) {
    console.error(lectern.output().slice(-4000));
    throw error;
  } finally {
    await lectern.stop();
  }
}

await main();
