import { generateText, jsonSchema, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { MockLanguageModel } from '../../src/llm/mock-model.js';
import { wordTokens } from '../../src/llm/tokens.js';

const model = (name: 'echo' | 'slow' | 'error' | 'tool' | 'json') => new MockLanguageModel(name);

describe('mock provider', () => {
  it('echo replies with the last message and counts words as tokens', async () => {
    const result = await generateText({
      model: model('echo'),
      system: 'be brief',
      messages: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'Hello there, world' },
      ],
    });
    expect(result.text).toBe('Hello there, world');
    expect(result.usage.inputTokens).toBe(2 + 2 + 2 + 3);
    expect(result.usage.outputTokens).toBe(3);
  });

  it('echo streams word-sized tokens that concatenate to the text', async () => {
    const text = 'The quick  brown\nfox ';
    const result = streamText({ model: model('echo'), prompt: text });
    const tokens: string[] = [];
    for await (const delta of result.textStream) tokens.push(delta);
    expect(tokens).toEqual(['The', ' quick', '  brown', '\nfox', ' ']);
    expect(tokens.join('')).toBe(text);
    expect(wordTokens('')).toEqual([]);
  });

  it('slow waits 50 ms before each token', async () => {
    const started = performance.now();
    const result = streamText({ model: model('slow'), prompt: 'one two three four' });
    const tokens: string[] = [];
    for await (const delta of result.textStream) tokens.push(delta);
    expect(tokens).toHaveLength(4);
    expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 50 - 5);
  });

  it('error fails like an unavailable provider, streaming or not', async () => {
    await expect(generateText({ model: model('error'), prompt: 'x', maxRetries: 0 })).rejects.toThrow(
      /unavailable/,
    );
    const errors: unknown[] = [];
    const result = streamText({
      model: model('error'),
      prompt: 'x',
      maxRetries: 0,
      onError: ({ error }) => void errors.push(error),
    });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('');
    expect(errors).toHaveLength(1);
  });

  it('tool calls the first tool with the last user text, then reports the result', async () => {
    const calls: unknown[] = [];
    const tools = {
      lookup: tool({
        description: 'look something up',
        inputSchema: jsonSchema<{ input: string }>({
          type: 'object',
          properties: { input: { type: 'string' } },
        }),
        execute: async (input) => {
          calls.push(input);
          return 'forty-two';
        },
      }),
      unused: tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => 'never' }),
    };
    const { stepCountIs } = await import('ai');
    const result = await generateText({
      model: model('tool'),
      prompt: 'meaning of life',
      tools,
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual([{ input: 'meaning of life' }]);
    expect(result.text).toBe('tool said: forty-two');

    const withoutTools = await generateText({ model: model('tool'), prompt: 'no tools here' });
    expect(withoutTools.text).toBe('no tools here');
  });

  it('json replies with the last user text as JSON', async () => {
    const result = await generateText({ model: model('json'), prompt: 'say "hi"' });
    expect(JSON.parse(result.text)).toEqual({ echo: 'say "hi"' });
  });
});
