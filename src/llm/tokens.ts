import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

let encoder: Tiktoken | undefined;

/** Tokens as OpenAI's cl100k_base counts them; the rank file ships inside js-tiktoken (no download). */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder.encode(text).length;
}
