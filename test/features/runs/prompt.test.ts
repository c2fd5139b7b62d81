import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { buildPrompt } from '../../../src/features/runtime/runs/prompt.js';

const version = (fields: {
  prompt?: string;
  systemMessage?: string;
  messages?: { role: 'user' | 'assistant' | 'system'; content: string }[];
}) => ({
  prompt: fields.prompt ?? null,
  systemMessage: fields.systemMessage ?? null,
  messages: fields.messages ?? null,
});

describe('building a run prompt', () => {
  it('fills variables from an object input and puts the system message first', async () => {
    const built = await buildPrompt({
      version: version({ systemMessage: 'You greet {{who}}.', prompt: 'Hello {{who}}' }),
      input: { who: 'Ada' },
    });
    expect(built.messages).toEqual([
      { role: 'system', content: 'You greet Ada.' },
      { role: 'user', content: 'Hello Ada' },
    ]);
    expect(built.turn).toEqual([{ role: 'user', content: 'Hello Ada' }]);
  });

  it("fills a template's only variable from a string, and makes a string the user message when there is none", async () => {
    const one = await buildPrompt({ version: version({ prompt: 'Say {{text}}' }), input: 'hi' });
    expect(one.messages).toEqual([{ role: 'user', content: 'Say hi' }]);
    const none = await buildPrompt({ version: version({ systemMessage: 'Be brief.' }), input: 'hi' });
    expect(none.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('refuses a string for a template with two variables, and a missing variable, naming the input', async () => {
    const two = buildPrompt({ version: version({ prompt: '{{a}} and {{b}}' }), input: 'x' });
    await expect(two).rejects.toThrow(ValidationError);
    await expect(two).rejects.toThrow(/input: a string fills a template with exactly one variable/);
    const missing = buildPrompt({ version: version({ prompt: '{{a}} and {{b}}' }), input: { a: 1 } });
    await expect(missing).rejects.toThrow(/input: .*b/);
  });

  it('appends an array input after the template, and replays history between the template and the turn', async () => {
    const history = [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'answer' },
    ];
    const built = await buildPrompt({
      version: version({ messages: [{ role: 'system', content: 'Rules' }] }),
      input: [{ role: 'user', content: 'now' }],
      history,
    });
    expect(built.messages).toEqual([
      { role: 'system', content: 'Rules' },
      ...history,
      { role: 'user', content: 'now' },
    ]);
    expect(built.turn).toEqual([{ role: 'user', content: 'now' }]);
  });

  it('puts Context chunks where the template writes {{context}}, else in a system message of their own', async () => {
    const placed = await buildPrompt({
      version: version({ prompt: 'Facts: {{context}}. Q: {{q}}' }),
      input: { q: 'why?' },
      contextChunks: ['one', 'two'],
    });
    expect(placed.messages).toEqual([{ role: 'user', content: 'Facts: one\n\ntwo. Q: why?' }]);
    const added = await buildPrompt({
      version: version({ prompt: 'Q: {{q}}' }),
      input: 'why?',
      contextChunks: ['one'],
    });
    expect(added.messages).toEqual([
      { role: 'system', content: 'Use the following context to answer.\n\none' },
      { role: 'user', content: 'Q: why?' },
    ]);
  });

  it('refuses a run with nothing to send', async () => {
    await expect(buildPrompt({ version: version({}), input: {} })).rejects.toThrow(
      /the run has no messages to send/,
    );
  });
});
