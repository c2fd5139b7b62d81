import { describe, expect, it } from 'vitest';
import {
  fleissKappa,
  krippendorffAlpha,
  majority,
  pearson,
  percentAgreement,
} from '../../../src/features/quality/review-queues/agreement.js';

/** Items as answers: one item with counts [2, 0, 1] of categories a, b, c is ['a', 'a', 'c']. */
function unitsOf(table: number[][]): string[][] {
  return table.map((row) => row.flatMap((count, category) => Array(count).fill(`c${category}`)));
}

describe('Fleiss’ kappa', () => {
  // The worked example of Fleiss' kappa in the literature (10 subjects, 14 raters, 5 categories;
  // Wikipedia's "Fleiss' kappa", after Fleiss 1971): P̄ = 0.378, P̄e = 0.213, κ = 0.210.
  const table = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('gives the published 0.210 for the worked example', () => {
    expect(fleissKappa(unitsOf(table))).toBeCloseTo(0.21, 3);
  });

  it('is 1 for perfect agreement over two categories, and null under two items or with one category', () => {
    expect(
      fleissKappa([
        [true, true, true],
        [false, false, false],
      ]),
    ).toBe(1);
    expect(fleissKappa([[true, true]])).toBeNull();
    expect(
      fleissKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]),
    ).toBeNull();
  });

  it('is negative when reviewers disagree more than chance', () => {
    expect(
      fleissKappa([
        [true, false],
        [false, true],
        [true, false],
      ]),
    ).toBeLessThan(0);
  });
});

describe('Krippendorff’s alpha (interval)', () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the example of 4 observers,
  // 12 units, missing values: α_interval = 0.849 (nominal 0.743).
  const observers = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
    [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
  ];
  const units = observers[0]!.map((_, unit) =>
    observers.map((row) => row[unit]).filter((value): value is number => value !== null),
  );

  it('gives the published 0.849 for the worked example (a unit with one value is left out)', () => {
    expect(krippendorffAlpha(units)).toBeCloseTo(0.849, 3);
  });

  it('is 1 when every item’s reviews agree, null under two items or with one value throughout', () => {
    expect(
      krippendorffAlpha([
        [1, 1],
        [5, 5, 5],
        [3, 3],
      ]),
    ).toBe(1);
    expect(krippendorffAlpha([[1, 2]])).toBeNull();
    expect(
      krippendorffAlpha([
        [2, 2],
        [2, 2],
      ]),
    ).toBeNull();
  });
});

describe('percent agreement, Pearson’s r and the majority', () => {
  it('pools the pairs of every item', () => {
    // 3 reviews agreeing: 3 of 3 pairs; 2 reviews disagreeing: 0 of 1.
    expect(
      percentAgreement([
        ['a', 'a', 'a'],
        ['a', 'b'],
      ]),
    ).toBe(0.75);
    expect(percentAgreement([['a']])).toBeNull();
  });

  it('computes Pearson’s r', () => {
    expect(
      pearson([
        [1, 2],
        [2, 4],
        [3, 6],
      ]),
    ).toBeCloseTo(1, 10);
    expect(
      pearson([
        [1, 3],
        [2, 2],
        [3, 1],
      ]),
    ).toBeCloseTo(-1, 10);
    // By hand: Σdxdy = 6, Σdx² = 10, Σdy² = 6, r = 6 / √60 = 0.7746.
    expect(
      pearson([
        [1, 2],
        [2, 4],
        [3, 5],
        [4, 4],
        [5, 5],
      ]),
    ).toBeCloseTo(0.7746, 4);
    expect(
      pearson([
        [1, 1],
        [1, 2],
      ]),
    ).toBeNull();
  });

  it('has no majority on a tie', () => {
    expect(majority([true, true, false])).toBe(true);
    expect(majority([true, false])).toBeUndefined();
  });
});
