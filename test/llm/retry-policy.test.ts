import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/core/json-columns.js';
import { ProviderError } from '../../src/errors.js';
import { MockLanguageModel } from '../../src/llm/mock-model.js';
import { callModel } from '../../src/llm/model-call.js';

/** The echo model, answering `failures` errors with this status and these headers before it succeeds. */
function failingFirst(failures: number, status: number, headers: Record<string, string> = {}) {
  const model = new MockLanguageModel('echo');
  const answer = model.doGenerate.bind(model);
  const attempts: number[] = [];
  model.doGenerate = async (options) => {
    attempts.push(performance.now());
    if (attempts.length <= failures) {
      throw new APICallError({
        message: `status ${status}`,
        url: 'https://provider.test/v1/chat/completions',
        requestBodyValues: {},
        statusCode: status,
        responseHeaders: headers,
        isRetryable: status === 429 || status >= 500,
      });
    }
    return answer(options);
  };
  return { model, attempts };
}

const call = (model: MockLanguageModel, config: ModelConfig = {}) =>
  callModel({
    model,
    kind: 'mock',
    messages: [{ role: 'user', content: 'hello' }],
    config,
    tools: { definitions: [], implementations: new Map() },
    executeTools: true,
    workspaceId: 'workspace',
  });

describe('the retry policy of a model call', () => {
  it('retries a 429 after the delay the provider asks for, not its own shorter backoff, then answers', async () => {
    // The first backoff is at most 312 ms; waiting 700 ms shows the provider's Retry-After was used.
    const { model, attempts } = failingFirst(1, 429, { 'retry-after-ms': '700' });
    const answer = await call(model);
    expect(answer.msg).toBe('hello');
    expect(attempts).toHaveLength(2);
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(690);
  });

  it('never retries a 4xx other than 429, and stops after num_retries', async () => {
    const refused = failingFirst(5, 400);
    await expect(call(refused.model)).rejects.toBeInstanceOf(ProviderError);
    expect(refused.attempts).toHaveLength(1);
    const limited = failingFirst(5, 503, { 'retry-after-ms': '1' });
    await expect(call(limited.model, { num_retries: 1 })).rejects.toThrow(/503|unavailable/i);
    expect(limited.attempts).toHaveLength(2);
  });

  it('answers with the failure at once when the requested wait would pass the call timeout', async () => {
    const { model, attempts } = failingFirst(1, 429, { 'retry-after': '3600' });
    const started = performance.now();
    // The hour asked for is cut to the 10 s longest wait, which still passes the 9 s deadline.
    await expect(call(model, { timeout: 9 })).rejects.toBeInstanceOf(ProviderError);
    expect(attempts).toHaveLength(1);
    // Waiting would end at the 9 s deadline; 6 s leaves a loaded machine room and still tells them apart.
    expect(performance.now() - started).toBeLessThan(6_000);
  });
});
