import { describe, expect, it } from 'vitest';
import { defaultFusion, rank, scoreOf } from '../../src/retrieval/hybrid-ranking.js';
import type { SearchCandidate } from '../../src/retrieval/hybrid-search.js';

const candidate = (id: string, lexical: number, semantic: number) =>
  ({ id, lexical, semantic }) as unknown as SearchCandidate;

describe('hybrid ranking', () => {
  it('scores each mode on its own part, and hybrid as the weighted sum of both', () => {
    const hit = candidate('a', 0.8, 0.4);
    expect(scoreOf(hit, 'lexical')).toBe(0.8);
    expect(scoreOf(hit, 'vector')).toBe(0.4);
    const { lexicalWeight } = defaultFusion;
    expect(scoreOf(hit, 'hybrid')).toBeCloseTo(lexicalWeight * 0.8 + (1 - lexicalWeight) * 0.4, 12);
  });

  it("calibrates a model's similarity from its floor before weighting it; below the floor it only orders", () => {
    const fusion = { lexicalWeight: 0.9, similarityFloor: 0.5 };
    // 99% the calibrated similarity, 1% the raw one.
    expect(scoreOf(candidate('a', 0.5, 0.75), 'hybrid', fusion)).toBeCloseTo(
      0.9 * 0.5 + 0.1 * (0.99 * 0.5 + 0.01 * 0.75),
      12,
    );
    expect(scoreOf(candidate('b', 0.5, 0.3), 'hybrid', fusion)).toBeCloseTo(0.9 * 0.5 + 0.1 * 0.01 * 0.3, 12);
    expect(scoreOf(candidate('c', 0, 1), 'hybrid', fusion)).toBeCloseTo(0.1, 12);
    // No word in common and below the floor: still above zero, nearer first.
    const unrelated = rank([candidate('far', 0, 0.1), candidate('near', 0, 0.3)], 'hybrid', 2, 0, fusion);
    expect(unrelated.map((hit) => hit.id)).toEqual(['near', 'far']);
    // Vector mode is the similarity itself, whatever the fusion.
    expect(scoreOf(candidate('d', 0.5, 0.3), 'vector', fusion)).toBe(0.3);
    const ranked = rank([candidate('low', 0.5, 0.3), candidate('high', 0.5, 0.75)], 'hybrid', 2, 0, fusion);
    expect(ranked.map((hit) => hit.id)).toEqual(['high', 'low']);
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
