/** NUL and UTF-16 halves without their partner: PostgreSQL text and jsonb cannot hold either. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for.
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorableEverywhere = new RegExp(unstorable.source, 'g');

/** Whether PostgreSQL can store a string as it is (the edge refuses input that it cannot). */
export function isStorableText(text: string): boolean {
  return !unstorable.test(text);
}

/**
 * A string PostgreSQL can store: NUL removed, a lone surrogate replaced by U+FFFD. For text that is
 * not the client's input (a model's output, an error) and so cannot be refused.
 */
export function storableText(text: string): string {
  if (!unstorable.test(text)) return text;
  return text.replace(unstorableEverywhere, (match) => (match === '\u0000' ? '' : '\ufffd'));
}
