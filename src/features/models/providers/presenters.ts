import { type ProviderKind, providerKindSpec } from '../../../llm/provider-kinds.js';
import type { ModelResponse, ProviderKindResponse, ProviderResponse } from './responses.js';
import type { Provider, ProviderModel } from './service.js';

/** The provider record as clients see it: never the key, only whether one is set. */
export function presentProvider(provider: Provider): ProviderResponse {
  return {
    guid: provider.id,
    provider: provider.kind,
    nickname: provider.nickname,
    // The official SDK's Provider has a display name.
    name: provider.nickname ?? provider.kind,
    url: provider.url,
    default: provider.isDefault,
    has_key: provider.encryptedKey !== null,
    created_at: provider.createdAt.toISOString(),
    updated_at: provider.updatedAt.toISOString(),
  };
}

export function presentModel({ model, provider }: ProviderModel): ModelResponse {
  return {
    guid: model.id,
    name: model.name,
    provider: provider.id,
    provider_kind: provider.kind,
    reference: `${provider.nickname ?? provider.kind}/${model.name}`,
    default: model.isDefault,
    // The official SDK's names for `name` and `provider`.
    llm: model.name,
    provider_guid: provider.id,
    created_at: model.createdAt.toISOString(),
  };
}

export function presentProviderKind(kind: ProviderKind): ProviderKindResponse {
  const spec = providerKindSpec(kind);
  return {
    name: kind,
    label: spec.label,
    key_required: spec.keyRequired,
    url_required: spec.urlRequired,
    default_url: spec.defaultUrl ?? null,
    embeddings: spec.embeddingModel !== undefined,
    suggested_models: [...spec.suggestedModels],
  };
}
