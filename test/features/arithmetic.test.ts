import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateArithmetic, formatNumber } from '../../src/features/authoring/skills/types/arithmetic.js';

describe('calculator arithmetic', () => {
  it('follows precedence, associativity and the functions it lists', () => {
    const cases: [string, string][] = [
      ['2 + 3 * 4', '14'],
      ['(2 + 3) * 4', '20'],
      ['-2 ^ 2', '-4'],
      ['2 ^ 3 ^ 2', '512'],
      ['2 ** 10', '1024'],
      ['10 - 4 - 3', '3'],
      ['100 / 10 / 5', '2'],
      ['7 % 4', '3'],
      ['0.1 + 0.2', '0.3'],
      ['1e3 / 4', '250'],
      ['sqrt(16) + max(1, 5, 3) - min(2, 0)', '9'],
      ['log(1000)', '3'],
      ['log(8, 2)', '3'],
      ['round(pi * 100) / 100', '3.14'],
      ['3 × 4 ÷ 2 − 1', '5'],
      ['hypot(3, 4)', '5'],
      ['--3', '3'],
    ];
    for (const [expression, expected] of cases)
      expect(formatNumber(evaluateArithmetic(expression)), expression).toBe(expected);
  });

  it('refuses anything but arithmetic with a reason', () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['2 +', /ends too early/],
      ['(1 + 2', /expected "\)"/],
      ['1 / 0', /division by zero/],
      ['constructor', /unknown name "constructor"/],
      ['__proto__', /unknown name/],
      ['process.exit(1)', /unexpected "\."/],
      ['alert("x")', /unexpected """/],
      ['pow(2)', /pow takes 2 arguments/],
      ['2 2', /unexpected "2"/],
      ['10 ^ 400', /not a finite number/],
      [`${'('.repeat(200)}1${')'.repeat(200)}`, /nested too deeply/],
      [`${'1+'.repeat(600)}1`, /longer than 1000/],
    ];
    for (const [expression, reason] of cases)
      expect(() => evaluateArithmetic(expression), expression).toThrow(reason);
  });

  it('agrees with JavaScript on integer sums, differences and products', () => {
    const operand = fc.integer({ min: -1_000_000, max: 1_000_000 });
    fc.assert(
      fc.property(operand, operand, operand, (a, b, c) => {
        expect(evaluateArithmetic(`${a} + ${b} * ${c}`)).toBe(a + b * c);
        expect(evaluateArithmetic(`(${a}) - (${b}) - (${c})`)).toBe(a - b - c);
      }),
    );
  });
});
