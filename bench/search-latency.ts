import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSentenceEncoderEmbedder } from '../src/retrieval/embedders/offline-embedder.js';
import { createWordVectorEmbedder } from '../src/retrieval/embedders/word-vector-embedder.js';
import {
  benchModelCacheDirectory,
  startBenchLectern,
  startBenchLecternWithUpstream,
} from './lectern-server.js';
import { format, measure, percentile } from './measure.js';

/**
 * Search latency (p50/p95 through HTTP, query embedding included) of one Context at 10k and 100k
 * chunks of synthetic text on the embedded database, and the loading rate. The Context embeds with
 * BENCH_SEARCH_MODEL: the word vectors by default (the sentence encoder would take hours to embed
 * 100k chunks on 2 cores), `synthetic/bag-of-words` for the local OpenAI-compatible server's 512
 * dimensions. Each offline model's query-embedding time is measured on its own and reported beside.
 */
const embeddingModel = process.env.BENCH_SEARCH_MODEL ?? 'offline/glove-sif-100d';
type Kept = { context: { guid: string; embeddingModel: string }; loaded: number };
const sizes = (process.env.BENCH_SEARCH_SIZES ?? '10000,100000').split(',').map(Number);
const queriesPerRound = Number(process.env.BENCH_SEARCH_QUERIES ?? 500);
const chunksPerRequest = 500;

/** A deterministic pseudo-random source (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const syllables = [
  'ka',
  'lo',
  'mi',
  'ta',
  'ren',
  'sol',
  'vi',
  'dar',
  'pe',
  'nu',
  'qua',
  'zel',
  'or',
  'fin',
  'gra',
  'the',
];
// As in English, the most frequent words are stop words (which the analyser drops); then a long tail.
const stopWords = (
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by ' +
  'but some what there we can out other were all your when up use word how said an each she which do their ' +
  'if will way about many then them would so these her him into has more two could been who its now my than ' +
  'did down only may over such our most very after also any just should those through where while because ' +
  'before being both few further here once same too under until why against between during again below off'
).split(' ');
const vocabulary = Array.from({ length: 20_000 }, (_, index) => {
  if (index < stopWords.length) return stopWords[index]!;
  const rank = index - stopWords.length;
  let word = '';
  for (let value = rank + 17; value > 0; value = Math.floor(value / syllables.length)) {
    word += syllables[value % syllables.length];
  }
  return word;
});
// Zipf: the word of rank r is drawn with probability ∝ 1/r, as in natural text.
const cumulative: number[] = [];
vocabulary.reduce((total, _, rank) => {
  cumulative.push(total + 1 / (rank + 1));
  return total + 1 / (rank + 1);
}, 0);
function word(): string {
  const target = next() * cumulative.at(-1)!;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return vocabulary[low]!;
}
const sentence = (words: number) => {
  const text = Array.from({ length: words }, word).join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
};

/**
 * BENCH_SEARCH_DATA_DIR keeps the embedded database: a later run on the same directory (with another
 * LECTERN_PGLITE_SHARED_BUFFERS, say) searches the chunks already loaded instead of loading them again.
 */
const keptDirectory = process.env.BENCH_SEARCH_DATA_DIR;
const marker = keptDirectory && path.join(keptDirectory, 'search-context.json');

async function main(): Promise<void> {
  const kept = marker && existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as Kept) : undefined;
  const lectern = kept
    ? await startBenchLectern(keptDirectory)
    : await startBenchLecternWithUpstream('synthetic', keptDirectory);
  try {
    const context =
      kept?.context ??
      (await lectern.post<{ guid: string; embeddingModel: string }>('/v1/contexts', {
        name: 'Synthetic',
        description: 'Zipf-distributed synthetic sentences',
        splitterConfig: { splitter: 'sentence', chunkSize: 200, chunkOverlap: 0 },
        embeddingModel,
      }));
    console.log(
      `search-latency: embedded PGlite, ${context.embeddingModel}, Node ${process.version}, ` +
        `${queriesPerRound} distinct queries a measurement`,
    );
    const chunkCount = async () =>
      (await lectern.get<{ total_count: number }>(`/v1/contexts/${context.guid}/documents?limit=1`))
        .total_count;
    let loaded = kept?.loaded ?? 0;
    for (const size of kept ? [loaded] : sizes) {
      const started = performance.now();
      const before = loaded;
      // Each sentence becomes one chunk (sentences are shorter than a chunk, two never fit in one).
      const requests = Math.ceil((size - loaded) / chunksPerRequest);
      await measure(
        async () => {
          const content = Array.from({ length: chunksPerRequest }, () =>
            sentence(18 + Math.floor(next() * 12)),
          ).join(' ');
          await lectern.post(`/v1/contexts/${context.guid}/documents`, {
            content,
            metadata: { group: `g${Math.floor(next() * 10)}` },
          });
        },
        requests,
        2,
      );
      for (;;) {
        if ((await lectern.get<{ processed: boolean }>(`/v1/contexts/${context.guid}`)).processed) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      loaded = await chunkCount();
      if (marker) writeFileSync(marker, JSON.stringify({ context, loaded } satisfies Kept));
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `  ${loaded} chunks (+${loaded - before} in ${seconds.toFixed(0)} s, ${((loaded - before) / seconds).toFixed(0)} chunks/s stored, indexed and embedded)`,
      );
      for (const [label, extra] of [
        ['hybrid', {}],
        ['lexical', { mode: 'lexical' }],
        ['vector', { mode: 'vector' }],
        ['hybrid + filter', { metadata_filter: { group: ['g1', 'g2'] } }],
      ] as const) {
        const search = () =>
          lectern
            .post(`/v1/contexts/${context.guid}/search`, {
              prompt: Array.from({ length: 4 + Math.floor(next() * 5) }, word).join(' '),
              number_of_results: 10,
              ...extra,
            })
            .then(() => undefined);
        await measure(search, 50, 1);
        const latencies = await measure(search, queriesPerRound, 1);
        console.log(
          `    ${label.padEnd(16)} p50 ${format(percentile(latencies, 0.5))}  p95 ${format(percentile(latencies, 0.95))}`,
        );
      }
    }
    for (const offline of [
      createWordVectorEmbedder({ cacheDirectory: benchModelCacheDirectory }),
      createSentenceEncoderEmbedder(),
    ]) {
      await offline.embed(['warm up'], 'query');
      const embedLatencies = await measure(
        async () => {
          await offline.embed([Array.from({ length: 8 }, word).join(' ')], 'query');
        },
        100,
        1,
      );
      await offline.close();
      console.log(
        `  ${offline.model}, one query: p50 ${format(percentile(embedLatencies, 0.5))}  p95 ${format(percentile(embedLatencies, 0.95))}`,
      );
    }
  } finally {
    await lectern.stop();
  }
}

await main();
