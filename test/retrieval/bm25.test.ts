import { describe, expect, it } from 'vitest';
import { useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace();

// Independent BM25 (k1 0.9, b 0.4, Lucene idf) over the stems PostgreSQL's English analyser makes of
// these texts (checked by hand: "running"/"runs" → "run", stop words dropped).
const k1 = 0.9;
const b = 0.4;
const idf = (documents: number, frequency: number) =>
  Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
const weight = (frequency: number, length: number, average: number) =>
  (frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * length) / average));

describe('BM25 lexical scores', () => {
  it('equal BM25 over the maximum possible, and follow deletes and updates', async () => {
    const { client } = context;
    const library = (await client.post('/v1/contexts', { name: 'BM25', description: 'x' })).body.guid;
    const base = `/v1/contexts/${library}/documents`;
    // Stems: [cat, run]; [cat, sleep, cat]; [dog, run, run, fast]
    const texts = ['The cat runs.', 'A cat sleeps, a cat.', 'Dogs run and run fast.'];
    const ids: string[] = [];
    for (const content of texts) ids.push((await client.post(base, { content })).body.docs[0]);
    const lengths = [2, 3, 4];
    const search = async (prompt: string) =>
      (
        await client.post(`/v1/contexts/${library}/search`, {
          prompt,
          mode: 'lexical',
          number_of_results: 10,
        })
      ).body as Array<{
        guid: string;
        score: number;
      }>;

    let average = (2 + 3 + 4) / 3;
    const catIdf = idf(3, 2);
    const maximum = catIdf * (k1 + 1);
    const hits = await search('cat');
    expect(hits.map((hit) => hit.guid)).toEqual([ids[1], ids[0]]);
    expect(hits[0]!.score).toBeCloseTo((catIdf * weight(2, lengths[1]!, average)) / maximum, 5);
    expect(hits[1]!.score).toBeCloseTo((catIdf * weight(1, lengths[0]!, average)) / maximum, 5);

    const running = await search('running cat');
    const runIdf = idf(3, 2);
    const bestRunning = (catIdf + runIdf) * (k1 + 1);
    const first = running.find((hit) => hit.guid === ids[0])!;
    expect(first.score).toBeCloseTo(
      (catIdf * weight(1, 2, average) + runIdf * weight(1, 2, average)) / bestRunning,
      5,
    );

    // Deleting the sleeping cat: N = 2, cat is in 1 Document, the average length is 3.
    await client.delete(`${base}/${ids[1]}`);
    average = (2 + 4) / 2;
    const afterDelete = await search('cat');
    expect(afterDelete.map((hit) => hit.guid)).toEqual([ids[0]]);
    expect(afterDelete[0]!.score).toBeCloseTo(weight(1, 2, average) / (k1 + 1), 5);

    // Rewriting the dog Document to mention a cat: cat is in 2 of 2 Documents.
    await client.put(`${base}/${ids[2]}`, { content: 'A cat.' });
    average = (2 + 1) / 2;
    const afterUpdate = await search('cat');
    const updatedIdf = idf(2, 2);
    expect(afterUpdate.find((hit) => hit.guid === ids[2])!.score).toBeCloseTo(
      (updatedIdf * weight(1, 1, average)) / (updatedIdf * (k1 + 1)),
      5,
    );
    expect(await search('dog')).toEqual([]);
    expect(await search('the and a')).toEqual([]);
  });
});
