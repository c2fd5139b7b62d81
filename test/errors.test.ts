import { expect, it } from 'vitest';
import {
  isFinal,
  isRetryable,
  NotFoundError,
  PermanentError,
  ProviderError,
  ValidationError,
} from '../src/errors.js';
import { OutboundFetchError } from '../src/platform/outbound-guard.js';
import { UnsupportedFileError } from '../src/retrieval/loaders/extract-text.js';
import { IndexingBudgetError } from '../src/retrieval/text-indexer.js';

it('answers "may another attempt succeed?" in one place', () => {
  expect(isRetryable(new ProviderError('429', true, 429))).toBe(true);
  expect(isRetryable(new ProviderError('401', false))).toBe(false);
  expect(isRetryable(new OutboundFetchError('no answer within 30000 ms', true))).toBe(true);
  expect(isRetryable(new OutboundFetchError('address 10.0.0.1 is not public', false))).toBe(false);
  for (const permanent of [
    new PermanentError('gone'),
    new UnsupportedFileError('.exe'),
    new IndexingBudgetError('big'),
  ]) {
    expect(isRetryable(permanent)).toBe(false);
  }
  expect(isRetryable(new ValidationError('input', 'bad'))).toBe(false);
  expect(isRetryable(new Error('connection reset'))).toBe(true);
  // Final: recorded at once with the status a client reads.
  expect(isFinal(new NotFoundError('Action not found'))).toBe(true);
  expect(isFinal(new ProviderError('503', true))).toBe(false);
  expect(isFinal(new Error('connection reset'))).toBe(false);
});
