import { describe, expect, it } from 'vitest';
import { lexicalWeight, rank, scoreOf } from '../../src/retrieval/hybrid-ranking.js';
import type { SearchCandidate } from '../../src/retrieval/hybrid-search.js';

const candidate = (id: string, lexical: number, semantic: number) =>
  ({ id, lexical, semantic }) as unknown as SearchCandidate;

describe('hybrid ranking', () => {
  it('scores each mode on its own part, and hybrid as the weighted sum of both', () => {
    const hit = candidate('a', 0.8, 0.4);
    expect(scoreOf(hit, 'lexical')).toBe(0.8);
    expect(scoreOf(hit, 'vector')).toBe(0.4);
    expect(scoreOf(hit, 'hybrid')).toBeCloseTo(lexicalWeight * 0.8 + (1 - lexicalWeight) * 0.4, 12);
  });

  it('orders best first, breaks ties by id, drops zero scores and those under the threshold, and keeps the limit', () => {
    const ranked = rank(
      [
        candidate('c', 0.5, 0.5),
        candidate('b', 0.5, 0.5),
        candidate('d', 0, 0),
        candidate('a', 1, 1),
        candidate('e', 0.1, 0),
      ],
      'hybrid',
      3,
      0.2,
    );
    expect(ranked.map((hit) => hit.id)).toEqual(['a', 'b', 'c']);
    expect(ranked[0]!.score).toBeCloseTo(1, 12);
    expect(
      rank([candidate('a', 1, 1), candidate('b', 0.9, 0.9)], 'lexical', 1, 0).map((hit) => hit.id),
    ).toEqual(['a']);
  });
});
