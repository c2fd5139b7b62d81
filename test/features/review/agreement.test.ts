import { describe, expect, it } from 'vitest';
import {
  type AnswerSums,
  type EvaluatorSums,
  fleissKappa,
  krippendorffAlpha,
  majorityAgreement,
  noAnswers,
  pearson,
  percentAgreement,
} from '../../../src/features/quality/review-queues/agreement.js';

type Value = boolean | number | string;

/**
 * The sums the database keeps (answer-counts.ts), from items' answers as the definitions give them:
 * the figures below are checked against published examples through the same sums.
 */
function sumsOf(units: Value[][], raters = units[0]?.length ?? 0): AnswerSums {
  const sums = noAnswers(raters);
  const categories = new Map<Value, number>();
  for (const unit of units) {
    const counts = new Map<Value, number>();
    for (const value of unit) counts.set(value, (counts.get(value) ?? 0) + 1);
    const agreeing = [...counts.values()].reduce((sum, count) => sum + count * (count - 1), 0);
    const m = unit.length;
    if (m >= 2) {
      const numbers = unit.filter((value): value is number => typeof value === 'number');
      const total = numbers.reduce((sum, value) => sum + value, 0);
      const squares = numbers.reduce((sum, value) => sum + value * value, 0);
      sums.items += 1;
      sums.pairs += m * (m - 1);
      sums.agreeingPairs += agreeing;
      sums.values += m;
      sums.total += total;
      sums.squares += squares;
      sums.withinItems += (m * squares - total * total) / (m - 1);
    }
    if (m === raters) {
      sums.fullItems += 1;
      sums.fullAgreeingPairs += agreeing;
      for (const [value, count] of counts) categories.set(value, (categories.get(value) ?? 0) + count);
    }
  }
  sums.categoryCounts = [...categories.values()];
  return sums;
}

/** Evaluator sums of (score, mean answer) pairs, one item each; `majority` of them agreeing. */
function evaluatorSumsOf(pairs: Array<[number, number]>, majority = 0): EvaluatorSums {
  const sum = (term: (pair: [number, number]) => number) =>
    pairs.reduce((total, pair) => total + term(pair), 0);
  return {
    items: pairs.length,
    majorityAgreeing: majority,
    weight: pairs.length,
    x: sum(([x]) => x),
    y: sum(([, y]) => y),
    xx: sum(([x]) => x * x),
    yy: sum(([, y]) => y * y),
    xy: sum(([x, y]) => x * y),
  };
}

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
    expect(fleissKappa(sumsOf(unitsOf(table)))).toBeCloseTo(0.21, 3);
  });

  it('is 1 for perfect agreement over two categories, and null under two items or with one category', () => {
    expect(
      fleissKappa(
        sumsOf([
          [true, true, true],
          [false, false, false],
        ]),
      ),
    ).toBe(1);
    expect(fleissKappa(sumsOf([[true, true]]))).toBeNull();
    expect(
      fleissKappa(
        sumsOf([
          ['a', 'a'],
          ['a', 'a'],
        ]),
      ),
    ).toBeNull();
  });

  it('is negative when reviewers disagree more than chance', () => {
    expect(
      fleissKappa(
        sumsOf([
          [true, false],
          [false, true],
          [true, false],
        ]),
      ),
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
    expect(krippendorffAlpha(sumsOf(units))).toBeCloseTo(0.849, 3);
  });

  it('is 1 when every item’s reviews agree, null under two items or with one value throughout', () => {
    expect(
      krippendorffAlpha(
        sumsOf([
          [1, 1],
          [5, 5, 5],
          [3, 3],
        ]),
      ),
    ).toBe(1);
    expect(krippendorffAlpha(sumsOf([[1, 2]]))).toBeNull();
    expect(
      krippendorffAlpha(
        sumsOf([
          [2, 2],
          [2, 2],
        ]),
      ),
    ).toBeNull();
  });
});

describe('percent agreement, Pearson’s r and the majority', () => {
  it('pools the pairs of every item', () => {
    // 3 reviews agreeing: 3 of 3 pairs; 2 reviews disagreeing: 0 of 1.
    expect(
      percentAgreement(
        sumsOf([
          ['a', 'a', 'a'],
          ['a', 'b'],
        ]),
      ),
    ).toBe(0.75);
    expect(percentAgreement(sumsOf([['a']]))).toBeNull();
  });

  it('computes Pearson’s r', () => {
    expect(
      pearson(
        evaluatorSumsOf([
          [1, 2],
          [2, 4],
          [3, 6],
        ]),
      ),
    ).toBeCloseTo(1, 10);
    expect(
      pearson(
        evaluatorSumsOf([
          [1, 3],
          [2, 2],
          [3, 1],
        ]),
      ),
    ).toBeCloseTo(-1, 10);
    // By hand: Σdxdy = 6, Σdx² = 10, Σdy² = 6, r = 6 / √60 = 0.7746.
    expect(
      pearson(
        evaluatorSumsOf([
          [1, 2],
          [2, 4],
          [3, 5],
          [4, 4],
          [5, 5],
        ]),
      ),
    ).toBeCloseTo(0.7746, 4);
    expect(
      pearson(
        evaluatorSumsOf([
          [1, 1],
          [1, 2],
        ]),
      ),
    ).toBeNull();
  });

  it('counts the items whose majority answer is the evaluator’s, a tie being none', () => {
    expect(
      majorityAgreement(
        evaluatorSumsOf(
          [
            [1, 1],
            [0, 0],
            [1, 0.5],
          ],
          2,
        ),
      ),
    ).toBeCloseTo(2 / 3, 10);
    expect(majorityAgreement(evaluatorSumsOf([]))).toBeNull();
  });
});
