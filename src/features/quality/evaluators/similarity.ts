import type { Embedder } from '../../../retrieval/embedders/embedder.js';
import type { ScoringTools } from './evaluator-types.js';

function cosine(first: Float32Array, second: Float32Array): number {
  let dot = 0;
  let firstNorm = 0;
  let secondNorm = 0;
  for (let index = 0; index < first.length; index += 1) {
    dot += first[index]! * second[index]!;
    firstNorm += first[index]! ** 2;
    secondNorm += second[index]! ** 2;
  }
  return firstNorm === 0 || secondNorm === 0 ? 0 : dot / Math.sqrt(firstNorm * secondNorm);
}

/** The `similarity` evaluator's measure: cosine similarity of two texts with the workspace's embedder. */
export function embeddingSimilarity(
  embedderOf: (workspaceId: string) => Promise<Embedder>,
): Pick<ScoringTools, 'similarity'> {
  return {
    async similarity(workspaceId, first, second) {
      const embedder = await embedderOf(workspaceId);
      const [firstVector, secondVector] = await embedder.embed([first, second], 'document');
      return cosine(firstVector!, secondVector!);
    },
  };
}
