import { ProviderError, ValidationError } from '../../errors.js';
import type { ProviderKind } from '../../llm/provider-kinds.js';

const validationTimeoutMs = 10_000;

/** Each vendor's model list: the cheapest authenticated request, and one that spends no tokens. */
function modelListRequest(
  kind: ProviderKind,
  key: string,
  openaiBaseUrl: string | undefined,
): { url: string; headers: Record<string, string> } | undefined {
  const bearer = { authorization: `Bearer ${key}` };
  switch (kind) {
    case 'openai':
      return {
        url: `${(openaiBaseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/models`,
        headers: bearer,
      };
    case 'anthropic':
      return {
        url: 'https://api.anthropic.com/v1/models',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      };
    case 'google':
      return {
        url: 'https://generativelanguage.googleapis.com/v1beta/models',
        headers: { 'x-goog-api-key': key },
      };
    case 'mistral':
      return { url: 'https://api.mistral.ai/v1/models', headers: bearer };
    case 'groq':
      return { url: 'https://api.groq.com/openai/v1/models', headers: bearer };
    default:
      return undefined;
  }
}

/**
 * Whether a vendor accepts an API key (the official SDK's `models.validateProviderApiKey`): `true` when
 * it lists its models with the key, `false` when it refuses the key (401/403). Only the vendors' own
 * addresses (or the operator's `OPENAI_BASE_URL`) are called, never a URL a tenant names.
 */
export async function validateProviderKey(
  kind: ProviderKind,
  key: string,
  openaiBaseUrl: string | undefined,
): Promise<boolean> {
  if (kind === 'mock') return true;
  const request = modelListRequest(kind, key, openaiBaseUrl);
  if (!request) {
    throw new ValidationError(
      'an openai-compatible server has no fixed address to check a key against: add it with POST /v1/providers and run an Action',
      'provider',
    );
  }
  let status: number;
  try {
    const response = await fetch(request.url, {
      headers: request.headers,
      signal: AbortSignal.timeout(validationTimeoutMs),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    throw new ProviderError(
      `${kind} could not be reached to check the key: ${(error as Error).message}`,
      true,
    );
  }
  if (status >= 200 && status < 300) return true;
  if (status === 401 || status === 403) return false;
  throw new ProviderError(`${kind} answered ${status} when asked to check the key`, status >= 500);
}
