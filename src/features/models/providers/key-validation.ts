import type { ProviderUrls } from '../../../config.js';
import { ProviderError, ValidationError } from '../../../errors.js';
import { type ProviderKind, providerKindSpec } from '../../../llm/provider-kinds.js';
import type { ConnectionTest } from './responses.js';

const validationTimeoutMs = 10_000;

/** Each vendor's model list: the cheapest authenticated request, and one that spends no tokens. */
function modelListRequest(
  kind: ProviderKind,
  key: string | undefined,
  baseUrl: string | undefined,
): { url: string; headers: Record<string, string> } | undefined {
  const spec = providerKindSpec(kind);
  const base = baseUrl ?? spec.defaultUrl;
  if (!base) return undefined;
  return { url: `${base.replace(/\/+$/, '')}/models`, headers: key ? spec.authenticationHeaders(key) : {} };
}

/**
 * Whether a vendor accepts an API key (the official SDK's `models.validateProviderApiKey`): `true` when
 * it lists its models with the key, `false` when it refuses the key (401/403). Only the vendors' own
 * addresses (or the operator's own, such as `OPENAI_BASE_URL`) are called, never a URL a tenant names.
 */
export async function validateProviderKey(
  kind: ProviderKind,
  key: string,
  operatorUrls: ProviderUrls,
): Promise<boolean> {
  const spec = providerKindSpec(kind);
  if (!spec.connects) return true;
  // Only the vendors' own addresses (or the operator's OPENAI_BASE_URL), never one the caller names.
  const request = spec.urlRequired ? undefined : modelListRequest(kind, key, operatorUrls[kind]);
  if (!request) {
    throw new ValidationError(
      'provider',
      'an openai-compatible server has no fixed address to check a key against: add it with POST /v1/providers and run an Action',
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

/**
 * Asks a saved provider for its model list with its own key and URL: whether the key is taken and
 * the server answers. A provider's own URL is fetched through the outbound guard (`fetch`), as its
 * runs are; a refused address or an error is reported, not thrown.
 */
export async function testProviderConnection(
  provider: { kind: ProviderKind; url: string | null; key: string | undefined },
  fetchThroughGuard: typeof fetch,
): Promise<ConnectionTest> {
  if (!providerKindSpec(provider.kind).connects)
    return { ok: true, message: `the ${provider.kind} provider needs no connection` };
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
