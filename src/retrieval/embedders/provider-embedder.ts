import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import { toProviderError } from '../../llm/provider-errors.js';
import { type Embedder, normalise } from './embedder.js';

/** A configured provider's embedding model (OpenAI, Google, Mistral, any OpenAI-compatible server). */
export function createProviderEmbedder(
  reference: string,
  provider: string,
  embeddingModel: EmbeddingModelV3,
): Embedder {
  return {
    model: reference,
    async embed(texts) {
      if (texts.length === 0) return [];
      try {
        const { embeddings } = await embedMany({
          model: embeddingModel,
          values: texts,
          maxRetries: 2,
          maxParallelCalls: 2,
        });
        return embeddings.map(normalise);
      } catch (error) {
        throw toProviderError(error, provider);
      }
    },
  };
}
