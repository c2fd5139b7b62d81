import { ValidationError } from '../../../../errors.js';
import { descriptionDefinition, type SkillType } from '../skill-type.js';
import { ArithmeticError, evaluateArithmetic, formatNumber } from './arithmetic.js';

/** Exact arithmetic a model would otherwise guess at; the expression is parsed, never evaluated as code. */
export const calculatorSkillType: SkillType = {
  guid: '6f1d3a52-4c1e-4b8a-9e0a-000000000004',
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression: + - * / % ^, parentheses, pi, e, and sqrt, cbrt, abs, round, floor, ceil, trunc, sign, exp, ln, log, log2, log10, pow, sin, cos, tan, asin, acos, atan, atan2, hypot, min, max.',
  inputDescription: 'An arithmetic expression, for example "(17.5 * 3) / 4" or "sqrt(2) * 10".',
  metadata: [descriptionDefinition],
  async execute(_settings, input) {
    try {
      return formatNumber(evaluateArithmetic(input));
    } catch (error) {
      if (error instanceof ArithmeticError)
        throw new ValidationError('prompt', `cannot calculate: ${error.message}`);
      throw error;
    }
  },
};
