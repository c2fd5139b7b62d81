import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

// A module of its own: the rank table is 1 MB of JavaScript, loaded only where tokens are counted.
let encoder: Tiktoken | undefined;

/** Tokens as OpenAI's cl100k_base counts them; the rank file ships inside js-tiktoken (no download). */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder.encode(text).length;
}
