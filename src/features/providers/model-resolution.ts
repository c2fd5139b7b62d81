import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import type { ProviderFallbacks } from '../../config.js';
import { ProviderError, ValidationError } from '../../errors.js';
import { isGuid } from '../../http/params.js';
import { isMockModelName } from '../../llm/mock-model.js';
import {
  isProviderKind,
  keylessKinds,
  type ProviderKind,
  splitModelReference,
} from '../../llm/provider-kinds.js';
import {
  createEmbeddingModel,
  createLanguageModel,
  embeddingKinds,
  type ProviderCredentials,
} from '../../llm/provider-registry.js';
import { createReadCache } from '../../platform/read-cache.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ProviderRepository, ProviderRow } from './repository.js';

export type ResolvedEmbeddingModel = {
  kind: ProviderKind;
  modelName: string;
  embeddingModel: EmbeddingModelV3;
};

export type ResolvedModel = {
  kind: ProviderKind;
  modelName: string;
  /** The workspace provider record used, when one was (not for env fallbacks or mock). */
  providerGuid?: string;
  languageModel: LanguageModelV3;
  /** Decrypted; only gateway_payload hands it out (SPEC §4.8). */
  credentials: ProviderCredentials;
};

/** How long another node may still use a provider's previous key or URL after a change. */
const resolvedModelCacheMs = 5_000;

type Target = { kind: ProviderKind; modelName: string; provider?: ProviderRow };

/**
 * Turns an Action's `model` — `"<provider>/<model>"` (provider = kind or nickname) or a model record's
 * GUID — into an AI SDK model with decrypted credentials. Workspace providers win over the
 * instance-wide environment fallbacks.
 */
export function createModelResolver(
  repository: ProviderRepository,
  secretBox: SecretBox,
  fallbacks: ProviderFallbacks,
) {
  async function target(workspaceId: string, reference: string, field = 'model'): Promise<Target> {
    if (isGuid(reference)) {
      const found = await repository.findModel(workspaceId, reference);
      if (!found) throw new ValidationError('no model record has this GUID', field);
      return {
        kind: found.provider.kind as ProviderKind,
        modelName: found.model.name,
        provider: found.provider,
      };
    }
    const parts = splitModelReference(reference);
    if (!parts) throw new ValidationError('must be "<provider>/<model>" or a model GUID', field);
    const provider = await repository.findByPrefix(workspaceId, parts.prefix);
    if (provider) return { kind: provider.kind as ProviderKind, modelName: parts.model, provider };
    if (!isProviderKind(parts.prefix)) {
      throw new ValidationError(
        `unknown provider "${parts.prefix}" (not a provider kind or nickname)`,
        field,
      );
    }
    return { kind: parts.prefix, modelName: parts.model };
  }

  const resolved = createReadCache<ResolvedModel>({ ttlMs: resolvedModelCacheMs });
  const resolvedEmbeddings = createReadCache<ResolvedEmbeddingModel>({ ttlMs: resolvedModelCacheMs });

  async function resolveEmbeddingUncached(
    workspaceId: string,
    reference: string,
  ): Promise<ResolvedEmbeddingModel> {
    const found = await target(workspaceId, reference, 'embeddingModel');
    if (!embeddingKinds.has(found.kind)) {
      throw new ValidationError(`provider "${found.kind}" has no embedding models`, 'embeddingModel');
    }
    const resolvedCredentials = requireCredentials(found);
    return {
      kind: found.kind,
      modelName: found.modelName,
      embeddingModel: createEmbeddingModel(found.kind, found.modelName, resolvedCredentials),
    };
  }

  function credentials({ kind, provider }: Target): ProviderCredentials | undefined {
    if (provider) {
      const apiKey = provider.encryptedKey ? secretBox.decrypt(provider.encryptedKey) : undefined;
      if (!apiKey && !keylessKinds.has(kind)) return undefined;
      return { apiKey, baseUrl: provider.url ?? undefined };
    }
    if (kind === 'mock') return {};
    if (kind === 'openai' && fallbacks.openai)
      return { apiKey: fallbacks.openai.key, baseUrl: fallbacks.openai.url };
    if (kind === 'anthropic' && fallbacks.anthropic) return { apiKey: fallbacks.anthropic.key };
    if (kind === 'google' && fallbacks.google) return { apiKey: fallbacks.google.key };
    return undefined;
  }

  function requireCredentials(found: Target): ProviderCredentials {
    const resolvedCredentials = credentials(found);
    if (!resolvedCredentials) {
      throw new ProviderError(`No API key is configured for provider "${found.kind}"`, false, 400);
    }
    return resolvedCredentials;
  }

  async function resolveUncached(workspaceId: string, reference: string): Promise<ResolvedModel> {
    const found = await target(workspaceId, reference);
    const resolvedCredentials = requireCredentials(found);
    return {
      kind: found.kind,
      modelName: found.modelName,
      providerGuid: found.provider?.id,
      languageModel: createLanguageModel(found.kind, found.modelName, resolvedCredentials),
      credentials: resolvedCredentials,
    };
  }

  return {
    /** Checks a reference when an Action is saved: it must name a known provider and, for mock, a mock model. */
    async validate(workspaceId: string, reference: string): Promise<void> {
      const { kind, modelName } = await target(workspaceId, reference);
      if (kind === 'mock' && !isMockModelName(modelName)) {
        throw new ValidationError(
          `unknown mock model "${modelName}" (echo, slow, error, tool, json)`,
          'model',
        );
      }
    },

    /** Resolved models are kept a few seconds: provider lookups and key decryption are off the hot path. */
    resolve(workspaceId: string, reference: string): Promise<ResolvedModel> {
      return resolved.get(`${workspaceId}:${reference}`, () => resolveUncached(workspaceId, reference));
    },

    /** The workspace's default model (a model record of its default provider), else `fallback`. */
    async defaultReference(workspaceId: string, fallback: string): Promise<string> {
      return (await repository.findDefaultModel(workspaceId))?.model.id ?? fallback;
    },

    /** A configured provider's embedding model (a Context's `embeddingModel`), kept like `resolve`: every search embeds its query. */
    resolveEmbedding(workspaceId: string, reference: string): Promise<ResolvedEmbeddingModel> {
      return resolvedEmbeddings.get(`${workspaceId}:${reference}`, () =>
        resolveEmbeddingUncached(workspaceId, reference),
      );
    },

    /** Forgets a workspace's resolved models after its providers or model records changed. */
    invalidate(workspaceId: string): void {
      resolved.invalidate(`${workspaceId}:`);
      resolvedEmbeddings.invalidate(`${workspaceId}:`);
    },
  };
}

export type ModelResolver = ReturnType<typeof createModelResolver>;
