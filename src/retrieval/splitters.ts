import type { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import type { SplitterConfig } from '../core/json-columns.js';

/** Used when a Context or Context Source gives no `splitterConfig` (documented in the OpenAPI schema). */
export const defaultSplitterConfig: SplitterConfig = {
  splitter: 'sentence',
  chunkSize: 1024,
  chunkOverlap: 128,
};

export type Splitter = (text: string) => Promise<string[]>;

/**
 * Cuts text into chunks of at most `chunkSize` (tokens for `token`, characters otherwise). LangChain's
 * splitters (and the token counter's rank table, 1 MB) are loaded by the first split, not at start.
 */
export function createSplitter(config: SplitterConfig): Splitter {
  let splitter: Promise<Splitter> | undefined;
  const withoutBlanks = (chunks: string[]) =>
    chunks.map((chunk) => chunk.trim()).filter((chunk) => chunk.length > 0);
  return async (text) => {
    splitter ??= loadSplitter(config);
    return withoutBlanks(await (await splitter)(text));
  };
}

async function loadSplitter(config: SplitterConfig): Promise<Splitter> {
  const { CharacterTextSplitter, MarkdownTextSplitter, RecursiveCharacterTextSplitter } = await import(
    '@langchain/textsplitters'
  );
  const sizes = { chunkSize: config.chunkSize, chunkOverlap: config.chunkOverlap };
  switch (config.splitter) {
    case 'sentence': {
      const recursive = new RecursiveCharacterTextSplitter(sizes);
      return (text) => packSentences(text, config, recursive);
    }
    case 'token': {
      const { countTokens } = await import('../llm/token-count.js');
      const splitter = new RecursiveCharacterTextSplitter({ ...sizes, lengthFunction: countTokens });
      return (text) => splitter.splitText(text);
    }
    case 'recursive': {
      const splitter = new RecursiveCharacterTextSplitter(sizes);
      return (text) => splitter.splitText(text);
    }
    case 'character': {
      const splitter = new CharacterTextSplitter({ ...sizes, separator: '' });
      return (text) => splitter.splitText(text);
    }
    case 'markdown': {
      const splitter = new MarkdownTextSplitter(sizes);
      return (text) => splitter.splitText(text);
    }
  }
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Characters segmented at once: V8's sentence segmenter slows quadratically with its input's length. */
const segmentWindow = 4_096;

/**
 * The sentences of `text`, in linear time: each window is segmented on its own and all but its last
 * sentence are kept, since the last may run on past the window; the next window starts there. A
 * sentence longer than a window comes out in window-sized pieces; packed back together, they lose no
 * text, only the rare chunk boundary may fall inside such a sentence.
 */
export function* sentencesOf(text: string, window = segmentWindow): Generator<string> {
  let start = 0;
  while (start < text.length) {
    const end = Math.min(start + window, text.length);
    const segments = Array.from(sentenceSegmenter.segment(text.slice(start, end)), (part) => part.segment);
    if (end === text.length) {
      yield* segments;
      return;
    }
    const complete = segments.length > 1 ? segments.slice(0, -1) : segments;
    for (const segment of complete) {
      yield segment;
      start += segment.length;
    }
  }
}

/**
 * Whole sentences packed greedily up to `chunkSize` characters; each chunk starts with the previous
 * chunk's last sentences up to `chunkOverlap` characters. A sentence longer than a chunk is cut by
 * the recursive splitter.
 */
async function packSentences(
  text: string,
  config: SplitterConfig,
  recursive: RecursiveCharacterTextSplitter,
): Promise<string[]> {
  const sentences: string[] = [];
  for (const segment of sentencesOf(text)) {
    if (segment.trim().length === 0) continue;
    if (segment.length > config.chunkSize) sentences.push(...(await recursive.splitText(segment)));
    else sentences.push(segment);
  }
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const sentence of sentences) {
    if (length + sentence.length > config.chunkSize && current.length > 0) {
      chunks.push(current.join(''));
      const overlap: string[] = [];
      let overlapLength = 0;
      for (let index = current.length - 1; index >= 0; index--) {
        const previous = current[index]!;
        if (overlapLength + previous.length > config.chunkOverlap) break;
        overlap.unshift(previous);
        overlapLength += previous.length;
      }
      // Keep room for the new sentence: the overlap never pushes a chunk past its size.
      while (overlap.length > 0 && overlapLength + sentence.length > config.chunkSize) {
        overlapLength -= overlap.shift()!.length;
      }
      current = overlap;
      length = overlapLength;
    }
    current.push(sentence);
    length += sentence.length;
  }
  if (current.length > 0) chunks.push(current.join(''));
  return chunks;
}
