import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import { isProviderKind, type ProviderKind, providerKinds } from '../core/provider-kind-names.js';
import { ValidationError } from '../errors.js';
import { isMockModelName, MockLanguageModel, mockModelNames } from './mock-model.js';

export type ProviderCredentials = {
  apiKey?: string;
  baseUrl?: string;
  /** How the provider is reached: the outbound guard for workspace-configured providers. */
  fetch?: typeof fetch;
};

/** Where a generation's USD cost comes from. */
export type PriceSource =
  /** The bundled price table, under this provider id; across every provider (by model name) when absent. */
  | { table: string | undefined }
  /** A fixed price per million tokens. */
  | { perMillionTokens: { input: number; output: number } };

/**
 * Everything Lectern knows about one provider kind, in one place: adding a kind is adding a record
 * here (and its AI SDK package), and the API, the console and the run engine follow.
 */
export type ProviderKindSpec = {
  label: string;
  /** The vendor's own API address; a provider record may name another (a proxy, a self-hosted server). */
  defaultUrl?: string;
  /** False when the kind works without a key (the mock, a self-hosted server that asks for none). */
  keyRequired: boolean;
  /** True when no fixed address exists, so a provider record must name one. */
  urlRequired: boolean;
  /** False for the mock: there is nothing to connect to, so any key is valid. */
  connects: boolean;
  /** How a request carries the key. */
  authenticationHeaders(key: string): Record<string, string>;
  price: PriceSource;
  /** Model names offered in the console's model picker (the mock's fixed models); others may be typed. */
  suggestedModels: readonly string[];
  /** An AI SDK model; every kind answers through the same interface. */
  languageModel(modelName: string, credentials: ProviderCredentials): Promise<LanguageModelV3>;
  /** An AI SDK embedding model, for kinds that offer text embeddings. */
  embeddingModel?(modelName: string, credentials: ProviderCredentials): Promise<EmbeddingModelV3>;
};

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function requireUrl(baseUrl: string | undefined): string {
  if (!baseUrl) throw new ValidationError('provider.url', 'an openai-compatible provider needs a url');
  return baseUrl;
}

// Each provider's SDK is imported the first time a model of its kind is resolved (~20 MB and ~70 ms
// each): a service that only uses one provider, or the mock, never loads the others.

/** Provider kinds of docs/api.md#models-and-providers, one record for each name of core/provider-kind-names.ts. */
export const providerKindSpecs = {
  openai: {
    label: 'OpenAI',
    defaultUrl: 'https://api.openai.com/v1',
    keyRequired: true,
    urlRequired: false,
    connects: true,
    authenticationHeaders: bearer,
    price: { table: 'openai' },
    suggestedModels: [],
    // .chat(): the default model id goes to the Responses API, which OpenAI-compatible servers lack.
    languageModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL, fetch }).chat(modelName),
    embeddingModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL, fetch }).embedding(modelName),
  },
  anthropic: {
    label: 'Anthropic',
    defaultUrl: 'https://api.anthropic.com/v1',
    keyRequired: true,
    urlRequired: false,
    connects: true,
    authenticationHeaders: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    price: { table: 'anthropic' },
    suggestedModels: [],
    languageModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey, baseURL, fetch })(modelName),
  },
  google: {
    label: 'Google',
    defaultUrl: 'https://generativelanguage.googleapis.com/v1beta',
    keyRequired: true,
    urlRequired: false,
    connects: true,
    authenticationHeaders: (key) => ({ 'x-goog-api-key': key }),
    price: { table: 'google' },
    suggestedModels: [],
    languageModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL, fetch })(modelName),
    embeddingModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/google'))
        .createGoogleGenerativeAI({ apiKey, baseURL, fetch })
        .embedding(modelName),
  },
  mistral: {
    label: 'Mistral',
    defaultUrl: 'https://api.mistral.ai/v1',
    keyRequired: true,
    urlRequired: false,
    connects: true,
    authenticationHeaders: bearer,
    price: { table: 'mistral' },
    suggestedModels: [],
    languageModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/mistral')).createMistral({ apiKey, baseURL, fetch })(modelName),
    embeddingModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/mistral')).createMistral({ apiKey, baseURL, fetch }).embedding(modelName),
  },
  groq: {
    label: 'Groq',
    defaultUrl: 'https://api.groq.com/openai/v1',
    keyRequired: true,
    urlRequired: false,
    connects: true,
    authenticationHeaders: bearer,
    price: { table: 'groq' },
    suggestedModels: [],
    languageModel: async (modelName, { apiKey, baseUrl: baseURL, fetch }) =>
      (await import('@ai-sdk/groq')).createGroq({ apiKey, baseURL, fetch })(modelName),
  },
  'openai-compatible': {
    label: 'OpenAI-compatible server',
    // A self-hosted server (vLLM, Ollama, LiteLLM) may ask for no key.
    keyRequired: false,
    urlRequired: true,
    connects: true,
    authenticationHeaders: bearer,
    // Such a server runs some vendor's model: look its name up across the table.
    price: { table: undefined },
    suggestedModels: [],
    languageModel: async (modelName, { apiKey, baseUrl, fetch }) =>
      (await import('@ai-sdk/openai-compatible'))
        .createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: requireUrl(baseUrl),
          apiKey,
          fetch,
          includeUsage: true,
        })
        .chatModel(modelName),
    embeddingModel: async (modelName, { apiKey, baseUrl, fetch }) =>
      (await import('@ai-sdk/openai-compatible'))
        .createOpenAICompatible({ name: 'openai-compatible', baseURL: requireUrl(baseUrl), apiKey, fetch })
        .embeddingModel(modelName),
  },
  mock: {
    label: 'Mock (deterministic, offline)',
    keyRequired: false,
    urlRequired: false,
    connects: false,
    authenticationHeaders: () => ({}),
    // docs/api.md#the-mock-provider: 1 USD per million input tokens and 2 USD per million output tokens.
    price: { perMillionTokens: { input: 1, output: 2 } },
    suggestedModels: mockModelNames,
    languageModel: async (modelName) => {
      if (!isMockModelName(modelName))
        throw new ValidationError('model', `unknown mock model "${modelName}"`);
      return new MockLanguageModel(modelName);
    },
  },
} satisfies Record<ProviderKind, ProviderKindSpec>;

// The names themselves live in core/, below every layer that names a kind.
export { isProviderKind, type ProviderKind, providerKinds };

export function providerKindSpec(kind: ProviderKind): ProviderKindSpec {
  return providerKindSpecs[kind];
}

/** An AI SDK model of one provider kind. */
export function createLanguageModel(
  kind: ProviderKind,
  modelName: string,
  credentials: ProviderCredentials,
): Promise<LanguageModelV3> {
  return providerKindSpec(kind).languageModel(modelName, credentials);
}

/** Whether a kind's AI SDK provider offers text embeddings. */
export function offersEmbeddings(kind: ProviderKind): boolean {
  return providerKindSpec(kind).embeddingModel !== undefined;
}

/** An AI SDK embedding model for a Context's configured embedder. */
export async function createEmbeddingModel(
  kind: ProviderKind,
  modelName: string,
  credentials: ProviderCredentials,
): Promise<EmbeddingModelV3> {
  const create = providerKindSpec(kind).embeddingModel;
  if (!create) throw new ValidationError('embeddingModel', `provider "${kind}" has no embedding models`);
  return create(modelName, credentials);
}

/** `"openai/gpt-4o-mini"` → `{ prefix: "openai", model: "gpt-4o-mini" }`; the model part may hold more slashes. */
export function splitModelReference(reference: string): { prefix: string; model: string } | undefined {
  const slash = reference.indexOf('/');
  if (slash <= 0 || slash === reference.length - 1) return undefined;
  return { prefix: reference.slice(0, slash), model: reference.slice(slash + 1) };
}
