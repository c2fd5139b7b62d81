// OpenAI's chat fine-tuning format (docs/evaluations.md#fine-tuning-export): one example per line,
// `{"messages": [...]}`, the last message the assistant's answer to learn.

export type ChatMessage = { role: string; content: unknown };
export type ChatExample = { messages: ChatMessage[] };

function isMessageList(input: unknown): input is ChatMessage[] {
  return (
    Array.isArray(input) &&
    input.every((message) => typeof message === 'object' && message !== null && 'role' in message)
  );
}

/** An input as chat messages: a message list as it is, text as the user's turn, variables as JSON text. */
export function chatMessagesOf(input: unknown): ChatMessage[] {
  if (isMessageList(input)) return input.map(({ role, content }) => ({ role, content }));
  return [{ role: 'user', content: typeof input === 'string' ? input : JSON.stringify(input) }];
}

/** The example of a prompt and its answer; none without an answer (nothing to learn). */
export function chatExample(prompt: ChatMessage[], answer: string | null): ChatExample | undefined {
  if (answer === null || answer.trim() === '' || prompt.length === 0) return undefined;
  return { messages: [...prompt, { role: 'assistant', content: answer }] };
}
