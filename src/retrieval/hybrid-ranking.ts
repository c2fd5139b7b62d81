import type { SearchCandidate, SearchMode } from './hybrid-search.js';

/**
 * Weight of the lexical score in the hybrid score; the rest is the cosine similarity. Both parts
 * are absolute (not rank-based), so one threshold means the same for every query. Tuned on the
 * SciFact train claims (bench/retrieval-quality.ts).
 */
export const lexicalWeight = 0.75;

export function scoreOf(candidate: SearchCandidate, mode: SearchMode): number {
  if (mode === 'lexical') return candidate.lexical;
  if (mode === 'vector') return candidate.semantic;
  return lexicalWeight * candidate.lexical + (1 - lexicalWeight) * candidate.semantic;
}

/** Candidates by score, best first, above `threshold`, at most `limit`. */
/** A candidate with its fused score, in [0, 1]. */
export type RankedCandidate = SearchCandidate & { score: number };

export function rank(
  candidates: SearchCandidate[],
  mode: SearchMode,
  limit: number,
  threshold: number,
): RankedCandidate[] {
  return candidates
    .map((candidate) => ({ ...candidate, score: scoreOf(candidate, mode) }))
    .filter((candidate) => candidate.score > 0 && candidate.score >= threshold)
    .sort((left, right) => right.score - left.score || left.id.localeCompare(right.id))
    .slice(0, limit);
}
