/** Who is waiting: a search (answer first) or indexing (may wait behind searches). */
export type EmbeddingPurpose = 'query' | 'document';

import type { Fusion } from '../hybrid-ranking.js';

/** Turns texts into unit-length vectors of one model; vectors of different models are never compared. */
export type Embedder = {
  /** The model reference stored with a Context (`offline/universal-sentence-encoder-lite` or `<provider>/<model>`). */
  model: string;
  embed(texts: string[], purpose: EmbeddingPurpose): Promise<Float32Array[]>;
  /** How its similarity joins the lexical score (retrieval/hybrid-ranking.ts's default when absent). */
  fusion?: Fusion;
};

/** Scales a vector to length 1, so cosine similarity is a dot product (and pgvector's cosine distance agrees). */
export function normalise(vector: ArrayLike<number>): Float32Array {
  let sumOfSquares = 0;
  for (let index = 0; index < vector.length; index++) sumOfSquares += vector[index]! ** 2;
  // A zero or broken vector (NaN) would poison cosine distances: keep it as zeros.
  const length =
    Number.isFinite(sumOfSquares) && sumOfSquares > 0 ? Math.sqrt(sumOfSquares) : Number.POSITIVE_INFINITY;
  const unit = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index++) unit[index] = vector[index]! / length;
  return unit;
}
