import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bulkWorkNice } from '../../src/platform/thread-priority.js';
import { createSentenceEncoderEmbedder } from '../../src/retrieval/embedders/offline-embedder.js';
import { textTypes } from '../../src/retrieval/loaders/file-types.js';
import { createTextIndexer } from '../../src/retrieval/text-indexer.js';

// Bulk work runs below the threads that answer requests (docs/performance.md#one-tenant-on-a-busy-machine):
// on a loaded machine the scheduler gives the request and database threads their turns first.

/** The nice value of a thread (field 19 of its stat line, after the command's closing parenthesis). */
function niceOf(pid: number, thread: number | string = pid): number {
  const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** This process's child processes whose command line contains `marker`. */
function childrenRunning(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
}

describe.runIf(process.platform === 'linux')('bulk work priority', () => {
  it('embeds Documents in a process below the normal priority, and queries in one at it', async () => {
    const embedder = createSentenceEncoderEmbedder();
    try {
      await embedder.embed(['Seals swim in cold water.'], 'document');
      const [documents] = childrenRunning('initModel');
      expect(documents).toBeDefined();
      const threads = readdirSync(`/proc/${documents}/task`);
      for (const thread of threads) expect(niceOf(documents!, thread)).toBe(bulkWorkNice);

      await embedder.embed(['marine animals'], 'query');
      const both = childrenRunning('initModel');
      expect(both).toHaveLength(2);
      const query = both.find((pid) => pid !== documents)!;
      expect(niceOf(query)).toBe(0);
    } finally {
      await embedder.close();
    }
  }, 60_000);

  it('splits files in a worker thread below the normal priority, the process itself untouched', async () => {
    const before = new Set(readdirSync('/proc/self/task'));
    const indexer = createTextIndexer({ timeLimitMs: 30_000, maximumTextLength: 1_000_000 });
    try {
      const split = await indexer.extractAndSplit(
        new Uint8Array(Buffer.from('One sentence. Another sentence.')),
        textTypes.plain,
        { chunkSize: 128, chunkOverlap: 0, splitter: 'sentence' },
      );
      expect(split.chunks.length).toBeGreaterThan(0);
      const started = readdirSync('/proc/self/task').filter((thread) => !before.has(thread));
      const lowered = started.filter((thread) => niceOf(process.pid, thread) === bulkWorkNice);
      expect(lowered.length).toBeGreaterThan(0);
      expect(niceOf(process.pid)).toBe(0);
    } finally {
      await indexer.close();
    }
  });
});
