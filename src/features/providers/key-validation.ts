import { ProviderError, ValidationError } from '../../errors.js';
import type { ProviderKind } from '../../llm/provider-kinds.js';

const validationTimeoutMs = 10_000;

/** How each vendor authenticates a request: the header that carries the key. */
function authenticationHeaders(kind: ProviderKind, key: string | undefined): Record<string, string> {
  if (!key) return {};
  if (kind === 'anthropic') return { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
  if (kind === 'google') return { 'x-goog-api-key': key };
  return { authorization: `Bearer ${key}` };
}

/** Each vendor's own address for its model list. */
const vendorBaseUrls: Partial<Record<ProviderKind, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  mistral: 'https://api.mistral.ai/v1',
  groq: 'https://api.groq.com/openai/v1',
};

/** Each vendor's model list: the cheapest authenticated request, and one that spends no tokens. */
function modelListRequest(
  kind: ProviderKind,
  key: string | undefined,
  baseUrl: string | undefined,
): { url: string; headers: Record<string, string> } | undefined {
  const base = baseUrl ?? vendorBaseUrls[kind];
  if (!base) return undefined;
  return { url: `${base.replace(/\/+$/, '')}/models`, headers: authenticationHeaders(kind, key) };
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
  // Only the vendors' own addresses (or the operator's OPENAI_BASE_URL), never one the caller names.
  const request =
    kind === 'openai-compatible'
      ? undefined
      : modelListRequest(kind, key, kind === 'openai' ? openaiBaseUrl : undefined);
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

export type ConnectionTest = { ok: boolean; message: string };

/**
 * Asks a saved provider for its model list with its own key and URL: whether the key is taken and
 * the server answers. A provider's own URL is fetched through the outbound guard (`fetch`), as its
 * runs are; a refused address or an error is reported, not thrown.
 */
export async function testProviderConnection(
  provider: { kind: ProviderKind; url: string | null; key: string | undefined },
  fetchThroughGuard: typeof fetch,
): Promise<ConnectionTest> {
  if (provider.kind === 'mock') return { ok: true, message: 'the mock provider needs no connection' };
  const request = modelListRequest(provider.kind, provider.key, provider.url ?? undefined);
  if (!request) return { ok: false, message: 'this provider has no URL to test' };
  let status: number;
  try {
    const response = await (provider.url ? fetchThroughGuard : fetch)(request.url, {
      headers: request.headers,
      signal: AbortSignal.timeout(validationTimeoutMs),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    return {
      ok: false,
      message: `could not reach ${new URL(request.url).host}: ${(error as Error).message}`,
    };
  }
  if (status >= 200 && status < 300)
    return { ok: true, message: `${new URL(request.url).host} answered with its models` };
  if (status === 401 || status === 403) return { ok: false, message: `the key was refused (${status})` };
  return { ok: false, message: `${new URL(request.url).host} answered ${status}` };
}
