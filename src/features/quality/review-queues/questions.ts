import { z } from 'zod';
import { ValidationError } from '../../../errors.js';
import type { questionTypes } from './responses.js';

// What a queue asks and what a rule watches: the shapes stored in review_queues.questions and
// review_rules.condition, and the check of a review's answers against its queue's questions.

/** A question as stored: defaults filled in (scale bounds, `required`). */
export type Question = {
  key: string;
  label: string;
  type: (typeof questionTypes)[number];
  min?: number;
  max?: number;
  options?: string[];
  required: boolean;
  evaluator?: string;
};

/** A rule's `when`: every condition given must hold. */
export type RuleCondition = {
  error?: true;
  feedback?: { type: string; value: string };
  score_below?: { evaluator: string; value: number };
};

export type Answer = boolean | number | string;

/** Fills the defaults §17 gives a question: a scale is 1–5 unless told; a text question is optional. */
export function questionOf(given: {
  key: string;
  label: string;
  type: Question['type'];
  min?: number;
  max?: number;
  options?: string[];
  required?: boolean;
  evaluator?: string;
}): Question {
  const question: Question = {
    key: given.key,
    label: given.label,
    type: given.type,
    required: given.required ?? given.type !== 'text',
  };
  if (given.type === 'scale') Object.assign(question, { min: given.min ?? 1, max: given.max ?? 5 });
  if (given.type === 'choice') question.options = given.options;
  if (given.evaluator) question.evaluator = given.evaluator;
  return question;
}

function answerProblem(question: Question, answer: unknown): string | undefined {
  switch (question.type) {
    case 'boolean':
      return typeof answer === 'boolean' ? undefined : 'must be true or false';
    case 'scale':
      return Number.isInteger(answer) &&
        (answer as number) >= question.min! &&
        (answer as number) <= question.max!
        ? undefined
        : `must be a whole number from ${question.min} to ${question.max}`;
    case 'choice':
      return typeof answer === 'string' && question.options!.includes(answer)
        ? undefined
        : `must be one of ${question.options!.map((option) => JSON.stringify(option)).join(', ')}`;
    case 'text':
      return typeof answer === 'string' && answer.length <= 10_000
        ? undefined
        : 'must be a string of at most 10,000 characters';
  }
}

/**
 * A review's answers checked against the queue's questions: each required one answered, each
 * answer of its question's type and range, none for a question the queue does not ask.
 */
export function checkAnswers(
  questions: Question[],
  answers: Record<string, unknown>,
): Record<string, Answer> {
  const byKey = new Map(questions.map((question) => [question.key, question]));
  for (const key of Object.keys(answers))
    if (!byKey.has(key)) throw new ValidationError(`answers.${key}`, 'the queue asks no such question');
  for (const question of questions) {
    const answer = answers[question.key];
    if (answer === undefined || answer === null || answer === '') {
      if (question.required) throw new ValidationError(`answers.${question.key}`, 'is required');
      continue;
    }
    const problem = answerProblem(question, answer);
    if (problem) throw new ValidationError(`answers.${question.key}`, problem);
  }
  return Object.fromEntries(
    Object.entries(answers).filter(([, answer]) => answer !== undefined && answer !== null && answer !== ''),
  ) as Record<string, Answer>;
}

export const answerValue = z.union([z.boolean(), z.number(), z.string()]);
