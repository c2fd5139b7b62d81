import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  convertWordVectors,
  deserialiseWordVectors,
  embedWithWordVectors,
  loadWordVectors,
  serialiseWordVectors,
} from '../../src/retrieval/embedders/word-vectors.js';
import { temporaryDirectory } from '../helpers/temporary-directory.js';

// A model in the package's own format (vectors, then their L2 norm and frequency rank), small
// enough to check by hand. Rank 0 is the most frequent word.
const model = {
  the: [1, 0, 0, 0],
  seal: [0, 2, 0, 0],
  swim: [0, 0, 3, -1.5],
  'cold-water': [0.5, 0.5, 0.5, 0.5],
  cold: [0, 0, 0, 4],
  'say "hi"': [0.25, 0, 0, 0],
};
function packageJson(): Buffer {
  const entries = Object.entries(model).map(([word, vector], rank) => {
    const norm = Math.hypot(...vector);
    return `${JSON.stringify(word)}:[${[...vector, norm, rank].join(',')}]`;
  });
  return Buffer.from(
    `{"precision":8,"l2NormIndex":4,"wordIndex":5,"size":${entries.length},"dimensions":4,` +
      `"words":${JSON.stringify(Object.keys(model))},"vectors":{${entries.join(',')}},"unkVector":[0,0,0,0,0,-1]}`,
  );
}

const cosine = (left: Float32Array, right: number[]) => {
  let dot = 0;
  for (let index = 0; index < left.length; index++) dot += left[index]! * right[index]!;
  return dot / (Math.hypot(...left) * Math.hypot(...right));
};

describe('word vectors', () => {
  it('converts the package format into int8 rows by frequency rank, within one quantisation step', () => {
    const vectors = convertWordVectors(packageJson());
    expect(vectors.dimensions).toBe(4);
    expect(vectors.rows.get('swim')).toBe(2);
    expect(vectors.rows.get('say "hi"')).toBe(5);
    const row = vectors.rows.get('swim')!;
    const restored = Array.from(
      vectors.values.subarray(row * 4, row * 4 + 4),
      (value) => value * vectors.scales[row]!,
    );
    model.swim.forEach((value, index) => {
      expect(Math.abs(restored[index]! - value)).toBeLessThanOrEqual(3 / 127 / 2 + 1e-6);
    });
  });

  it('round-trips through the compact form', () => {
    const vectors = convertWordVectors(packageJson());
    const again = deserialiseWordVectors(serialiseWordVectors(vectors));
    expect(again.dimensions).toBe(vectors.dimensions);
    expect([...again.rows]).toEqual([...vectors.rows]);
    expect(Array.from(again.scales)).toEqual(Array.from(vectors.scales));
    expect(Array.from(again.values)).toEqual(Array.from(vectors.values));
  });

  it('embeds a text as its words weighted by rarity: the more frequent word weighs less', () => {
    const vectors = convertWordVectors(packageJson());
    expect(cosine(embedWithWordVectors(vectors, 'Seal'), model.seal)).toBeCloseTo(1, 6);
    // "the" (rank 0) and "SEAL" (rank 1) lie on their own axes: each axis holds one word's weight.
    const sum = embedWithWordVectors(vectors, 'the SEAL');
    const weightOfThe = sum[0]! / 1;
    const weightOfSeal = sum[1]! / 2;
    expect(weightOfThe).toBeGreaterThan(0);
    expect(weightOfThe).toBeLessThan(weightOfSeal);
    expect(Array.from(embedWithWordVectors(vectors, 'unknown words only'))).toEqual([0, 0, 0, 0]);
  });

  it('takes a joined word whole when the vocabulary has it, and as its parts when not', () => {
    const vectors = convertWordVectors(packageJson());
    expect(cosine(embedWithWordVectors(vectors, 'cold-water'), model['cold-water'])).toBeCloseTo(1, 2);
    // "swim-cold" is not a word of the vocabulary: "swim" + "cold".
    expect(embedWithWordVectors(vectors, 'swim-cold')).toEqual(embedWithWordVectors(vectors, 'swim cold'));
    expect(embedWithWordVectors(vectors, 'swim’s')).toEqual(embedWithWordVectors(vectors, 'swim s'));
  });

  it('writes the cache on first load and reads it afterwards; an unreadable cache is converted again', () => {
    const directory = temporaryDirectory('lectern-word-vectors-');
    const source = path.join(directory, 'model.json');
    const cache = path.join(directory, 'cache', 'model.bin');
    writeFileSync(source, packageJson());
    const first = loadWordVectors(source, cache);
    expect(existsSync(cache)).toBe(true);
    // The cache is what is read now: the source may go.
    writeFileSync(source, 'not json');
    expect([...loadWordVectors(source, cache).rows]).toEqual([...first.rows]);
    writeFileSync(cache, 'garbage');
    writeFileSync(source, packageJson());
    expect([...loadWordVectors(source, cache).rows]).toEqual([...first.rows]);
    expect(readFileSync(cache).subarray(0, 8).toString()).toBe('LECWV001');

    // The container image keeps the compact form only: without the source the cache is all it needs,
    // and with neither the error names both places.
    rmSync(source);
    expect([...loadWordVectors(source, cache).rows]).toEqual([...first.rows]);
    rmSync(cache);
    expect(() => loadWordVectors(source, cache)).toThrow(`neither at ${cache} nor at ${source}`);
  });

  it('refuses a file that is not in the package format', () => {
    expect(() => convertWordVectors(Buffer.from('{"size":2}'))).toThrow(/dimensions or size/);
    expect(() => convertWordVectors(Buffer.from('{"dimensions":2,"size":1}'))).toThrow(/no vectors/);
  });
});
