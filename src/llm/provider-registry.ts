import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import { ValidationError } from '../errors.js';
import { isMockModelName, MockLanguageModel } from './mock-model.js';
import type { ProviderKind } from './provider-kinds.js';

export type ProviderCredentials = {
  apiKey?: string;
  baseUrl?: string;
  /** How the provider is reached: the outbound guard for workspace-configured providers. */
  fetch?: typeof fetch;
};

// Each provider's SDK is imported the first time a model of its kind is resolved (~20 MB and ~70 ms
// each): a service that only uses one provider, or the mock, never loads the others.

/** An AI SDK model for one provider kind; every kind answers through the same interface. */
export async function createLanguageModel(
  kind: ProviderKind,
  modelName: string,
  credentials: ProviderCredentials,
): Promise<LanguageModelV3> {
  const { apiKey, baseUrl: baseURL, fetch } = credentials;
  switch (kind) {
    case 'openai':
      // .chat(): the default model id goes to the Responses API, which OpenAI-compatible servers lack.
      return (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL, fetch }).chat(modelName);
    case 'anthropic':
      return (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey, baseURL, fetch })(modelName);
    case 'google':
      return (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL, fetch })(modelName);
    case 'mistral':
      return (await import('@ai-sdk/mistral')).createMistral({ apiKey, baseURL, fetch })(modelName);
    case 'groq':
      return (await import('@ai-sdk/groq')).createGroq({ apiKey, baseURL, fetch })(modelName);
    case 'openai-compatible':
      if (!baseURL) throw new ValidationError('an openai-compatible provider needs a url', 'provider.url');
      return (await import('@ai-sdk/openai-compatible'))
        .createOpenAICompatible({
          name: 'openai-compatible',
          baseURL,
          apiKey,
          fetch,
          includeUsage: true,
        })
        .chatModel(modelName);
    case 'mock':
      if (!isMockModelName(modelName))
        throw new ValidationError(`unknown mock model "${modelName}"`, 'model');
      return new MockLanguageModel(modelName);
  }
}

/** Kinds whose AI SDK provider offers text embeddings. */
export const embeddingKinds: ReadonlySet<ProviderKind> = new Set([
  'openai',
  'google',
  'mistral',
  'openai-compatible',
]);

/** An AI SDK embedding model for a Context's configured embedder. */
export async function createEmbeddingModel(
  kind: ProviderKind,
  modelName: string,
  credentials: ProviderCredentials,
): Promise<EmbeddingModelV3> {
  const { apiKey, baseUrl: baseURL, fetch } = credentials;
  switch (kind) {
    case 'openai':
      return (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL, fetch }).embedding(modelName);
    case 'google':
      return (await import('@ai-sdk/google'))
        .createGoogleGenerativeAI({ apiKey, baseURL, fetch })
        .embedding(modelName);
    case 'mistral':
      return (await import('@ai-sdk/mistral')).createMistral({ apiKey, baseURL, fetch }).embedding(modelName);
    case 'openai-compatible':
      if (!baseURL) throw new ValidationError('an openai-compatible provider needs a url', 'provider.url');
      return (await import('@ai-sdk/openai-compatible'))
        .createOpenAICompatible({ name: 'openai-compatible', baseURL, apiKey, fetch })
        .embeddingModel(modelName);
    default:
      throw new ValidationError(`provider "${kind}" has no embedding models`, 'embeddingModel');
  }
}
