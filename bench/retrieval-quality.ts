import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createWordVectorEmbedder } from '../src/retrieval/embedders/word-vector-embedder.js';
import { type Fusion, scoreOf } from '../src/retrieval/hybrid-ranking.js';
import type { SearchCandidate } from '../src/retrieval/hybrid-search.js';
import {
  type BenchLectern,
  benchModelCacheDirectory,
  startBenchLecternWithUpstream,
} from './lectern-server.js';
import { measure } from './measure.js';
import { ndcgAt10 } from './ranking-metrics.js';

/**
 * SciFact (BEIR's copy: corpus.jsonl, queries-train.jsonl, qrels-train.tsv in BENCH_SCIFACT_DIR, by
 * default `data/scifact` in the checkout, which git ignores), every abstract (title + text) one
 * Document, added through the public API 8 requests at a time:
 *
 * - Indexing rate, each against the others of the same run: lexical only (stored and BM25-indexed,
 *   searchable), the word vectors (the fast offline model), a provider embedder (the local
 *   OpenAI-compatible server's bag-of-words vectors, so the figure is Lectern's own cost), and the
 *   offline default, the sentence encoder (~8 minutes on 2 cores).
 * - nDCG@10 of the judged train claims, split in two by position: the fusion (retrieval/hybrid-ranking.ts)
 *   is chosen on the tuning half (even positions) and the figures are reported on the other half.
 *
 * BENCH_SCIFACT_LIMIT indexes only the first N abstracts.
 */
const dataFolder = process.env.BENCH_SCIFACT_DIR ?? path.resolve(import.meta.dirname, '../data/scifact');
if (!existsSync(path.join(dataFolder, 'corpus.jsonl'))) {
  console.error(
    `SciFact is not in ${dataFolder}: set BENCH_SCIFACT_DIR to a folder with BEIR's SciFact files ` +
      '(corpus.jsonl, queries-train.jsonl, qrels-train.tsv). Nothing is downloaded.',
  );
  process.exit(2);
}
const limit = Number(process.env.BENCH_SCIFACT_LIMIT ?? Number.POSITIVE_INFINITY);
const modes = ['lexical', 'vector', 'hybrid'] as const;

type Abstract = { _id: string; title: string; text: string };
type Hit = { score: number; metadata: { doc_id?: string } };
type Claim = { _id: string; text: string };

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

type Indexed = { context: string; chunks: number; storedSeconds: number; processedSeconds: number };

async function index(
  lectern: BenchLectern,
  abstracts: Abstract[],
  embeddingModel?: string,
): Promise<Indexed> {
  const context = await lectern.post('/v1/contexts', {
    name: `SciFact ${embeddingModel ?? 'default'}`,
    description: 'SciFact abstracts (BEIR)',
    // One abstract, one Document: BEIR scores whole abstracts.
    splitterConfig: { splitter: 'recursive', chunkSize: 50_000, chunkOverlap: 0 },
    ...(embeddingModel && { embeddingModel }),
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
  for (;;) {
    const state = await lectern.get<{ processed: boolean }>(`/v1/contexts/${context.guid}`);
    if (state.processed) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const processedSeconds = (performance.now() - started) / 1000;
  // A Context whose embedding failed is "processed" too: the figures must be of embedded Documents.
  const probe = abstracts[0]!;
  const nearest = await lectern.post<Hit[]>(`/v1/contexts/${context.guid}/search`, {
    prompt: `${probe.title}\n${probe.text}`,
    number_of_results: 1,
    mode: 'vector',
  });
  if (nearest[0]?.metadata.doc_id !== probe._id) {
    throw new Error(
      `${embeddingModel ?? 'the default model'} did not embed the abstracts: check the service's log`,
    );
  }
  return { context: context.guid, chunks: abstracts.length, storedSeconds, processedSeconds };
}

const rate = (chunks: number, seconds: number) =>
  `${(chunks / seconds).toFixed(1)} chunks/s (${chunks} in ${seconds.toFixed(1)} s)`;

async function search(lectern: BenchLectern, context: string, claim: Claim, mode: string, results = 10) {
  return lectern.post<Hit[]>(`/v1/contexts/${context}/search`, {
    prompt: claim.text,
    number_of_results: results,
    mode,
  });
}

/**
 * The fusion (lexical weight, similarity floor) with the best hybrid nDCG@10 over `claims`. As the
 * service does, candidates are the lexical top 100 (from the service) and the vector top 100, each
 * with its exact similarity: the word vectors embed every abstract here in under a second, with the
 * service's own code. A candidate outside the lexical top 100 scores 0 lexically (below the 100th).
 */
async function tuneFusion(
  lectern: BenchLectern,
  context: string,
  abstracts: Abstract[],
  claims: Claim[],
  judgments: Map<string, Map<string, number>>,
): Promise<Fusion & { ndcg: number; lexical: number }> {
  const embedder = createWordVectorEmbedder({ cacheDirectory: benchModelCacheDirectory });
  const documentVectors = await embedder.embed(
    abstracts.map((abstract) => `${abstract.title}\n${abstract.text}`),
    'document',
  );
  const claimVectors = await embedder.embed(
    claims.map((claim) => claim.text),
    'query',
  );
  await embedder.close();
  const dot = (left: Float32Array, right: Float32Array) => {
    let sum = 0;
    for (let index = 0; index < left.length; index++) sum += left[index]! * right[index]!;
    return sum;
  };
  const scored: Array<{ claim: Claim; scores: Map<string, { lexical: number; semantic: number }> }> = [];
  for (const [position, claim] of claims.entries()) {
    const similarities = documentVectors.map((vector) => dot(vector, claimVectors[position]!));
    const scores = new Map<string, { lexical: number; semantic: number }>();
    for (const hit of await search(lectern, context, claim, 'lexical', 100)) {
      scores.set(hit.metadata.doc_id ?? '', { lexical: hit.score, semantic: 0 });
    }
    const nearest = similarities
      .map((similarity, index) => ({ similarity, index }))
      .sort((left, right) => right.similarity - left.similarity)
      .slice(0, 100);
    for (const { index } of nearest) {
      const id = abstracts[index]!._id;
      scores.set(id, { lexical: scores.get(id)?.lexical ?? 0, semantic: 0 });
    }
    for (const [index, abstract] of abstracts.entries()) {
      const score = scores.get(abstract._id);
      if (score) score.semantic = Math.max(0, similarities[index]!);
    }
    scored.push({ claim, scores });
  }
  const ndcgOf = (fusion: Fusion) => {
    let total = 0;
    for (const { claim, scores } of scored) {
      const ranked = [...scores]
        .map(([id, score]) => ({ id, score: scoreOf({ ...score } as SearchCandidate, 'hybrid', fusion) }))
        .sort((left, right) => right.score - left.score)
        .map((hit) => hit.id);
      total += ndcgAt10(ranked, judgments.get(claim._id)!);
    }
    return total / scored.length;
  };
  const weights = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98];
  console.log(`    lexical weight   ${weights.map((weight) => weight.toFixed(2).padStart(6)).join('')}`);
  let best = { lexicalWeight: 1, similarityFloor: 0, ndcg: -1 };
  for (const similarityFloor of [0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85]) {
    const row = weights.map((lexicalWeight) => {
      const ndcg = ndcgOf({ lexicalWeight, similarityFloor });
      if (ndcg > best.ndcg) best = { lexicalWeight, similarityFloor, ndcg };
      return ndcg.toFixed(3).padStart(6);
    });
    console.log(`    floor ${similarityFloor.toFixed(2)}       ${row.join('')}`);
  }
  return { ...best, lexical: ndcgOf({ lexicalWeight: 1, similarityFloor: 0 }) };
}

async function quality(
  lectern: BenchLectern,
  context: string,
  label: string,
  claims: Claim[],
  judgments: Map<string, Map<string, number>>,
) {
  for (const mode of modes) {
    let total = 0;
    for (const claim of claims) {
      const hits = await search(lectern, context, claim, mode);
      total += ndcgAt10(
        hits.map((hit) => hit.metadata.doc_id ?? ''),
        judgments.get(claim._id)!,
      );
    }
    console.log(
      `    ${label} ${mode.padEnd(8)} nDCG@10 ${(total / claims.length).toFixed(4)} (${claims.length} claims)`,
    );
  }
}

async function main(): Promise<void> {
  const abstracts = lines('corpus.jsonl')
    .map((line) => JSON.parse(line) as Abstract)
    .slice(0, limit);
  const judgments = loadJudgments();
  const claims = lines('queries-train.jsonl')
    .map((line) => JSON.parse(line) as Claim)
    .filter((claim) => judgments.has(claim._id));
  const tuning = claims.filter((_, position) => position % 2 === 0);
  const reporting = claims.filter((_, position) => position % 2 === 1);
  const lectern = await startBenchLecternWithUpstream('synthetic');
  try {
    console.log(
      `retrieval-quality: SciFact, ${abstracts.length} abstracts through the public API, 8 requests at a time`,
    );
    const fast = await index(lectern, abstracts, 'offline/glove-sif-100d');
    console.log(`  lexical only (stored, BM25-indexed): ${rate(fast.chunks, fast.storedSeconds)}`);
    console.log(`  word vectors hybrid (+ embedded): ${rate(fast.chunks, fast.processedSeconds)}`);
    const provider = await index(lectern, abstracts, 'synthetic/bag-of-words');
    console.log(
      `  provider embedder (local OpenAI-compatible): ${rate(provider.chunks, provider.processedSeconds)}`,
    );
    const encoder = await index(lectern, abstracts);
    console.log(
      `  offline default (sentence encoder) hybrid: ${rate(encoder.chunks, encoder.processedSeconds)}`,
    );
    const configured = JSON.stringify(createWordVectorEmbedder({ cacheDirectory: undefined }).fusion);
    console.log(
      `  fusion of the word vectors, tuned on ${tuning.length} claims (configured: ${configured}):`,
    );
    const tuned = await tuneFusion(lectern, fast.context, abstracts, tuning, judgments);
    console.log(
      `    best: weight ${tuned.lexicalWeight}, floor ${tuned.similarityFloor}: ${tuned.ndcg.toFixed(4)} ` +
        `(lexical alone ${tuned.lexical.toFixed(4)} on this half)`,
    );
    console.log('  reported on the other half (the service as configured):');
    await quality(lectern, encoder.context, 'offline default', reporting, judgments);
    await quality(lectern, fast.context, 'word vectors', reporting, judgments);
    console.log('  published BM25 on SciFact: 0.665–0.687; target for hybrid: ≥ 0.70');
  } finally {
    await lectern.stop();
  }
}

await main();
