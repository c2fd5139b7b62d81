/*
 * PostgreSQL text and jsonb can hold neither NUL nor a UTF-16 half without its partner (a lone
 * surrogate). Both are looked for with string built-ins, not a regex: on a 22 MB upload a regex pass
 * held the request thread for 15–29 ms, `indexOf` and `isWellFormed` take ~1.5 ms and ~0.
 */

/** Whether PostgreSQL can store a string as it is (the edge refuses input that it cannot). */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/**
 * A string PostgreSQL can store: NUL removed, a lone surrogate replaced by U+FFFD. For text that is
 * not the client's input (a model's output, an error) and so cannot be refused.
 */
export function storableText(text: string): string {
  if (isStorableText(text)) return text;
  return text.replaceAll('\u0000', '').toWellFormed();
}
