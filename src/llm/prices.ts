import type { GenerationCost } from '../core/json-columns.js';
import { type ProviderKind, providerKindSpec } from './provider-kinds.js';

export type TokenUsage = { inputTokens: number; outputTokens: number; cachedInputTokens?: number };

function rounded(value: number): number {
  return Number(value.toPrecision(12));
}

/**
 * The USD cost of one generation from the bundled `@pydantic/genai-prices` table (offline; it is
 * never told to update), or a kind's fixed price (the mock's). A model of a kind with no table of its
 * own (an OpenAI-compatible server) is looked up by name across providers.
 * Undefined when the price is unknown, so `cost` is left out rather than reported as zero. The table
 * (0.8 MB of JavaScript) is loaded by the first priced generation, not at start.
 */
export async function generationCost(
  kind: ProviderKind,
  modelName: string,
  usage: TokenUsage,
): Promise<GenerationCost | undefined> {
  const { price: source } = providerKindSpec(kind);
  if ('perMillionTokens' in source) {
    const input = (usage.inputTokens * source.perMillionTokens.input) / 1_000_000;
    const output = (usage.outputTokens * source.perMillionTokens.output) / 1_000_000;
    return { input: rounded(input), output: rounded(output), generation: rounded(input + output) };
  }
  const { calcPrice } = await import('@pydantic/genai-prices');
  const price = calcPrice(
    {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      ...(usage.cachedInputTokens ? { cache_read_tokens: usage.cachedInputTokens } : {}),
    },
    modelName,
    source.table === undefined ? undefined : { providerId: source.table },
  );
  if (!price) return undefined;
  return {
    input: rounded(price.input_price),
    output: rounded(price.output_price),
    generation: rounded(price.total_price),
  };
}

/** genai-prices' names of the providers OpenTelemetry's `gen_ai.provider.name` (or `gen_ai.system`) names differently. */
const tracedProviders: Record<string, string> = {
  'aws.bedrock': 'aws',
  'az.ai.openai': 'azure',
  'azure.ai.openai': 'azure',
  'gcp.gemini': 'google',
  'gcp.vertex_ai': 'google',
  'gcp.gen_ai': 'google',
  x_ai: 'x-ai',
  xai: 'x-ai',
  mistral_ai: 'mistral',
};

/**
 * The price of a model call an application traced (docs/traces.md): looked up under its provider
 * when the table knows the provider, else by the model's name across providers. Undefined when no
 * price is known.
 */
export async function tracedCallCost(
  provider: string | null,
  modelName: string,
  usage: TokenUsage,
): Promise<GenerationCost | undefined> {
  const { calcPrice } = await import('@pydantic/genai-prices');
  const tokens = { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
  const named = provider ? (tracedProviders[provider.toLowerCase()] ?? provider.toLowerCase()) : undefined;
  const price =
    (named === undefined ? null : calcPrice(tokens, modelName, { providerId: named })) ??
    calcPrice(tokens, modelName);
  if (!price) return undefined;
  return {
    input: rounded(price.input_price),
    output: rounded(price.output_price),
    generation: rounded(price.total_price),
  };
}
