import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { requestedRetryDelayMs, toProviderError } from '../../src/llm/provider-errors.js';

// The retry policy's inputs, without HTTP: what a provider's error answer asks for.

function answered(status: number, headers: Record<string, string> = {}) {
  return toProviderError(
    new APICallError({
      message: 'upstream said no',
      url: 'https://provider.test/v1/chat/completions',
      requestBodyValues: {},
      statusCode: status,
      responseHeaders: headers,
      isRetryable: status === 429 || status >= 500,
    }),
    'openai',
  );
}

describe('provider errors', () => {
  it('maps statuses to what a run answers and whether another attempt may help', () => {
    expect(answered(429)).toMatchObject({ status: 429, retryable: true });
    expect(answered(400)).toMatchObject({ status: 400, retryable: false });
    expect(answered(401)).toMatchObject({ status: 502, retryable: false });
    expect(answered(503)).toMatchObject({ status: 502, retryable: true });
  });

  it('reads retry-after-ms, retry-after in seconds and as an HTTP date', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(requestedRetryDelayMs(answered(429, { 'retry-after-ms': '1500' }), now)).toBe(1_500);
    expect(requestedRetryDelayMs(answered(429, { 'retry-after': '7' }), now)).toBe(7_000);
    expect(
      requestedRetryDelayMs(answered(503, { 'retry-after': 'Mon, 23 Nov 2026 12:00:30 GMT' }), now),
    ).toBe(30_000);
    expect(
      requestedRetryDelayMs(answered(503, { 'retry-after': 'Mon, 23 Nov 2026 11:59:00 GMT' }), now),
    ).toBe(0);
    expect(requestedRetryDelayMs(answered(429, { 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(requestedRetryDelayMs(answered(429), now)).toBeUndefined();
    expect(requestedRetryDelayMs(new Error('no answer'), now)).toBeUndefined();
  });
});
