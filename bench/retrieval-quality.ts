import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BenchLectern, startBenchLectern } from './lectern-server.js';
import { measure } from './measure.js';
import { ndcgAt10 } from './ranking-metrics.js';

/**
 * nDCG@10 on SciFact (BEIR's copy: corpus.jsonl, queries.jsonl, qrels-train.tsv in BENCH_SCIFACT_DIR,
 * by default `data/scifact` in the checkout, which git ignores): every abstract (title + text) indexed as one Document
 * of a Context through the public API with the offline default embedder, every judged train claim
 * searched lexical only, vector only and hybrid. Also the indexing rate.
 *
 * BENCH_SCIFACT_DATA_DIR keeps the embedded database (and the Context) between runs, so the
 * ~10-minute indexing happens once. BENCH_SCIFACT_LIMIT indexes only the first N abstracts.
 */
const dataFolder = process.env.BENCH_SCIFACT_DIR ?? path.resolve(import.meta.dirname, '../data/scifact');
if (!existsSync(path.join(dataFolder, 'corpus.jsonl'))) {
  console.error(
    `SciFact is not in ${dataFolder}: set BENCH_SCIFACT_DIR to a folder with BEIR's SciFact files ` +
      '(corpus.jsonl, queries.jsonl, qrels-train.tsv). Nothing is downloaded.',
  );
  process.exit(2);
}
const keptDirectory = process.env.BENCH_SCIFACT_DATA_DIR;
const limit = Number(process.env.BENCH_SCIFACT_LIMIT ?? Number.POSITIVE_INFINITY);
const modes = ['lexical', 'vector', 'hybrid'] as const;

type Abstract = { _id: string; title: string; text: string };
type Hit = { score: number; metadata: { doc_id?: string } };

const lines = (file: string) =>
  readFileSync(path.join(dataFolder, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim());

function loadJudgments(): Map<string, Map<string, number>> {
  const judgments = new Map<string, Map<string, number>>();
  for (const line of lines('qrels-train.tsv').slice(1)) {
    const [query, document, score] = line.split('\t');
    if (!judgments.has(query!)) judgments.set(query!, new Map());
    judgments.get(query!)!.set(document!, Number(score));
  }
  return judgments;
}

async function index(lectern: BenchLectern): Promise<{ context: string; chunks: number; seconds: number }> {
  const abstracts = lines('corpus.jsonl')
    .map((line) => JSON.parse(line) as Abstract)
    .slice(0, limit);
  const context = await lectern.post('/v1/contexts', {
    name: 'SciFact',
    description: 'SciFact abstracts (BEIR)',
    // One abstract, one Document: BEIR scores whole abstracts.
    splitterConfig: { splitter: 'recursive', chunkSize: 50_000, chunkOverlap: 0 },
  });
  const started = performance.now();
  let next = 0;
  await measure(
    async () => {
      const abstract = abstracts[next++]!;
      await lectern.post(`/v1/contexts/${context.guid}/documents`, {
        content: `${abstract.title}\n${abstract.text}`,
        metadata: { doc_id: abstract._id },
      });
    },
    abstracts.length,
    8,
  );
  const storedSeconds = (performance.now() - started) / 1000;
  console.log(
    `  stored ${abstracts.length} abstracts in ${storedSeconds.toFixed(1)} s (searchable lexically)`,
  );
  for (;;) {
    const state = await lectern.get<{ processed: boolean }>(`/v1/contexts/${context.guid}`);
    if (state.processed) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  return { context: context.guid, chunks: abstracts.length, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const lectern = await startBenchLectern(keptDirectory);
  try {
    const marker = keptDirectory ? path.join(keptDirectory, 'scifact-context.json') : undefined;
    let indexed: { context: string; chunks: number; seconds: number };
    if (marker && existsSync(marker)) {
      indexed = JSON.parse(readFileSync(marker, 'utf8'));
      console.log(`retrieval-quality: reusing the Context indexed in ${keptDirectory}`);
    } else {
      console.log('retrieval-quality: indexing SciFact through the public API (offline embedder)…');
      indexed = await index(lectern);
      if (marker) writeFileSync(marker, JSON.stringify(indexed));
    }
    console.log(
      `  indexing: ${indexed.chunks} chunks in ${indexed.seconds.toFixed(1)} s = ` +
        `${(indexed.chunks / indexed.seconds).toFixed(1)} chunks/s (stored, BM25-indexed and embedded)`,
    );
    const judgments = loadJudgments();
    const claims = lines('queries-train.jsonl')
      .map((line) => JSON.parse(line) as { _id: string; text: string })
      .filter((claim) => judgments.has(claim._id));
    for (const mode of modes) {
      let total = 0;
      const started = performance.now();
      for (const claim of claims) {
        const hits = await lectern.post<Hit[]>(`/v1/contexts/${indexed.context}/search`, {
          prompt: claim.text,
          number_of_results: 10,
          mode,
        });
        total += ndcgAt10(
          hits.map((hit) => hit.metadata.doc_id ?? ''),
          judgments.get(claim._id)!,
        );
      }
      const milliseconds = (performance.now() - started) / claims.length;
      console.log(
        `  ${mode.padEnd(8)} nDCG@10 ${(total / claims.length).toFixed(4)} over ${claims.length} claims ` +
          `(${milliseconds.toFixed(1)} ms a search)`,
      );
    }
    console.log('  published BM25 on SciFact: 0.665–0.687; target for hybrid: ≥ 0.70');
  } finally {
    await lectern.stop();
  }
}

await main();
