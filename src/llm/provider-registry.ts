import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createGroq } from '@ai-sdk/groq';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
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

/** An AI SDK model for one provider kind; every kind answers through the same interface. */
export function createLanguageModel(
  kind: ProviderKind,
  modelName: string,
  credentials: ProviderCredentials,
): LanguageModelV3 {
  const { apiKey, baseUrl: baseURL, fetch } = credentials;
  switch (kind) {
    case 'openai':
      // .chat(): the default model id goes to the Responses API, which OpenAI-compatible servers lack.
      return createOpenAI({ apiKey, baseURL, fetch }).chat(modelName);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL, fetch })(modelName);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch })(modelName);
    case 'mistral':
      return createMistral({ apiKey, baseURL, fetch })(modelName);
    case 'groq':
      return createGroq({ apiKey, baseURL, fetch })(modelName);
    case 'openai-compatible':
      if (!baseURL) throw new ValidationError('an openai-compatible provider needs a url', 'provider.url');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey,
        fetch,
        includeUsage: true,
      }).chatModel(modelName);
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
export function createEmbeddingModel(
  kind: ProviderKind,
  modelName: string,
  credentials: ProviderCredentials,
): EmbeddingModelV3 {
  const { apiKey, baseUrl: baseURL, fetch } = credentials;
  switch (kind) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL, fetch }).embedding(modelName);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch }).embedding(modelName);
    case 'mistral':
      return createMistral({ apiKey, baseURL, fetch }).embedding(modelName);
    case 'openai-compatible':
      if (!baseURL) throw new ValidationError('an openai-compatible provider needs a url', 'provider.url');
      return createOpenAICompatible({ name: 'openai-compatible', baseURL, apiKey, fetch }).embeddingModel(
        modelName,
      );
    default:
      throw new ValidationError(`provider "${kind}" has no embedding models`, 'embeddingModel');
  }
}
