/**
 * Word-sized pieces whose concatenation is exactly `text`: "a b" → ["a", " b"]. The mock model streams
 * its replies in these pieces, and a cached answer is replayed to a stream in them.
 */
export function wordTokens(text: string): string[] {
  return [...lazyWordTokens(text)];
}

/** The same pieces, made one at a time as they are asked for. */
export function* lazyWordTokens(text: string): Generator<string> {
  // Whitespace goes with the word after it; whitespace at the end is a piece of its own.
  const token = /\s*\S+|\s+/g;
  for (let match = token.exec(text); match; match = token.exec(text)) yield match[0];
}
