import { describe, expect, it } from 'vitest';
import { type CompletedExchange, toGenerationRecord } from '../../src/gateway/interaction.js';

function exchange(response: unknown, overrides: Partial<CompletedExchange> = {}): CompletedExchange {
  return {
    serviceKey: 'lec_key',
    actionGuid: '00000000-0000-4000-8000-000000000001',
    requestBody: Buffer.from(
      JSON.stringify({
        model: 'gpt-test',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
          { role: 'tool', content: 'ignored in full_prompt_sent', tool_call_id: 'x' },
        ],
      }),
    ),
    responseChunks: [Buffer.from(typeof response === 'string' ? response : JSON.stringify(response))],
    status: 200,
    contentType: typeof response === 'string' ? 'text/event-stream' : 'application/json',
    latencyMs: 12.4,
    interrupted: false,
    upstreamHost: 'api.example.test',
    ...overrides,
  };
}

const event = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

describe('reading an exchange into a generation', () => {
  it('reassembles streamed tool calls into the msg convention and counts tokens without usage', () => {
    const stream = [
      event({ model: 'gpt-test-2024', choices: [{ index: 0, delta: { role: 'assistant', content: null } }] }),
      event({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, id: 'call_1', function: { name: 'weather', arguments: '{"ci' } }],
            },
          },
        ],
      }),
      event({
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] } },
        ],
      }),
      event({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
      'data: [DONE]\n\n',
    ].join('');
    const record = toGenerationRecord(exchange(stream));
    expect(JSON.parse(record.output)).toEqual({
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
      ],
    });
    expect(record).toMatchObject({
      model: 'gpt-test-2024',
      model_provider: 'api.example.test',
      latency_ms: 12,
      full_prompt_sent: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      metadata: { status: 200, stream: false, usage_estimated: true, finish_reason: 'tool_calls' },
    });
    expect(record.num_input_tokens).toBeGreaterThan(3);
    expect(record.metadata.incomplete).toBeUndefined();
  });

  it('marks a stream without [DONE] or an interrupted exchange incomplete, keeping what arrived', () => {
    const partial = event({ choices: [{ index: 0, delta: { content: 'Sunny and' } }] });
    expect(toGenerationRecord(exchange(partial)).metadata.incomplete).toBe(true);
    const interrupted = toGenerationRecord(
      exchange({ choices: [{ message: { content: 'done' } }] }, { interrupted: true }),
    );
    expect(interrupted).toMatchObject({ output: 'done', metadata: { incomplete: true } });
  });

  it('keeps an error’s type and code but never its message', () => {
    const record = toGenerationRecord(
      exchange(
        {
          error: {
            message: 'Incorrect API key provided: sk-abc***xyz',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
        { status: 401 },
      ),
    );
    expect(record.output).toBe('');
    expect(record.metadata.error).toEqual({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(JSON.stringify(record)).not.toContain('sk-abc');
  });
});
