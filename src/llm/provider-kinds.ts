/** Provider kinds of docs/api.md#models-and-providers. */
export const providerKinds = [
  'openai',
  'anthropic',
  'google',
  'mistral',
  'groq',
  'openai-compatible',
  'mock',
] as const;

export type ProviderKind = (typeof providerKinds)[number];

export function isProviderKind(value: string): value is ProviderKind {
  return (providerKinds as readonly string[]).includes(value);
}

/** Kinds that work without a key (mock), or whose server may not need one (self-hosted OpenAI-compatible). */
export const keylessKinds: ReadonlySet<ProviderKind> = new Set(['mock', 'openai-compatible']);

/** Kinds that cannot work without a base URL. */
export const urlRequiredKinds: ReadonlySet<ProviderKind> = new Set(['openai-compatible']);

/** `"openai/gpt-4o-mini"` → `{ prefix: "openai", model: "gpt-4o-mini" }`; the model part may hold more slashes. */
export function splitModelReference(reference: string): { prefix: string; model: string } | undefined {
  const slash = reference.indexOf('/');
  if (slash <= 0 || slash === reference.length - 1) return undefined;
  return { prefix: reference.slice(0, slash), model: reference.slice(slash + 1) };
}
