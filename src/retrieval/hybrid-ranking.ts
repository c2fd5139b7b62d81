import type { SearchCandidate, SearchMode } from './hybrid-search.js';

/**
 * How one embedding model's similarity joins the lexical score in a hybrid score. Both parts are
 * absolute (not rank-based), so one threshold means the same for every query. Models spread their
 * cosine similarities differently (averaged word vectors put unrelated texts at ~0.5), so each model
 * has its own: `similarityFloor` maps [floor, 1] onto [0, 1] before weighting.
 */
export type Fusion = {
  /** Weight of the lexical score; the rest is the calibrated similarity. */
  lexicalWeight: number;
  similarityFloor: number;
};

/** Tuned on the SciFact train claims with the sentence encoder; kept for provider models. */
export const defaultFusion: Fusion = { lexicalWeight: 0.75, similarityFloor: 0 };

/**
 * The share of the raw similarity kept beside the calibrated one: a candidate below the floor still
 * scores above zero, in the order of its similarity, so a search whose words match nothing (or a
 * metadata filter with an unrelated prompt) still returns the nearest chunks.
 */
const rawSimilarityShare = 0.01;

export function scoreOf(
  candidate: SearchCandidate,
  mode: SearchMode,
  fusion: Fusion = defaultFusion,
): number {
  if (mode === 'lexical') return candidate.lexical;
  if (mode === 'vector') return candidate.semantic;
  const { lexicalWeight, similarityFloor } = fusion;
  const calibrated = Math.max(0, (candidate.semantic - similarityFloor) / (1 - similarityFloor));
  const similarity = (1 - rawSimilarityShare) * calibrated + rawSimilarityShare * candidate.semantic;
  return lexicalWeight * candidate.lexical + (1 - lexicalWeight) * similarity;
}

/** A candidate with its fused score, in [0, 1]. */
export type RankedCandidate = SearchCandidate & { score: number };

/** Candidates by score, best first, above `threshold`, at most `limit`. */
export function rank(
  candidates: SearchCandidate[],
  mode: SearchMode,
  limit: number,
  threshold: number,
  fusion: Fusion = defaultFusion,
): RankedCandidate[] {
  return candidates
    .map((candidate) => ({ ...candidate, score: scoreOf(candidate, mode, fusion) }))
    .filter((candidate) => candidate.score > 0 && candidate.score >= threshold)
    .sort((left, right) => right.score - left.score || left.id.localeCompare(right.id))
    .slice(0, limit);
}
