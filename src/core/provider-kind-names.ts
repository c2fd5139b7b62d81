/**
 * The provider kinds Lectern speaks, in the order the console lists them. What each one is (its SDK,
 * its address, its prices) is in llm/provider-kinds.ts; the names alone are here, so the table
 * schema and the wire can name a kind without depending on the model layer.
 */
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

/**
 * The operator's environment variables that serve a kind when a workspace has no provider record
 * (read once by config.ts, which sits below the model layer).
 */
export const providerKindEnvironment: Partial<Record<ProviderKind, { key: string; url?: string }>> = {
  openai: { key: 'OPENAI_API_KEY', url: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY' },
  google: { key: 'GOOGLE_GENERATIVE_AI_API_KEY' },
};
