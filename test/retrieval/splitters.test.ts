import { describe, expect, it } from 'vitest';
import { splitterNames } from '../../src/core/wire-values.js';
import { countTokens } from '../../src/llm/token-count.js';
import { createSplitter } from '../../src/retrieval/splitters.js';

const text = Array.from(
  { length: 40 },
  (_, index) => `Sentence number ${index} talks about topic ${index % 7} in some detail.`,
).join(' ');

describe('splitters', () => {
  it.each(splitterNames)('%s keeps every chunk within chunkSize and loses no words', async (splitter) => {
    const chunkSize = splitter === 'token' ? 40 : 200;
    const chunks = await createSplitter({ splitter, chunkSize, chunkOverlap: 20 })(text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      const size = splitter === 'token' ? countTokens(chunk) : chunk.length;
      expect(size, chunk).toBeLessThanOrEqual(chunkSize);
    }
    const joined = chunks.join(' ');
    for (const word of ['number 0', 'number 39', 'topic 6']) expect(joined).toContain(word);
  });

  it('sentence keeps sentences whole and repeats the previous ones up to the overlap', async () => {
    const chunks = await createSplitter({ splitter: 'sentence', chunkSize: 150, chunkOverlap: 70 })(text);
    for (const chunk of chunks) expect(chunk).toMatch(/^Sentence number \d+ .*detail\.$/);
    const firstSentences = (chunk: string) => chunk.match(/Sentence number \d+/g)!;
    expect(firstSentences(chunks[1]!)[0]).toBe(firstSentences(chunks[0]!).at(-1));
  });
});
