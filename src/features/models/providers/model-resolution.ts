import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import type { EnvironmentKeySharing, ProviderFallbacks } from '../../../config.js';
import { isGuid } from '../../../core/guid.js';
import { ProviderError, ValidationError } from '../../../errors.js';
import { isMockModelName } from '../../../llm/mock-model.js';
import {
  createEmbeddingModel,
  createLanguageModel,
  isProviderKind,
  offersEmbeddings,
  type ProviderCredentials,
  type ProviderKind,
  providerKindSpec,
  splitModelReference,
} from '../../../llm/provider-kinds.js';
import { createReadCache } from '../../../platform/read-cache.js';
import type { SecretBox } from '../../../platform/secrets.js';
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
  /** Decrypted; gateway_payload hands out only a key the workspace stored itself (docs/api.md#runs). */
  credentials: ProviderCredentials;
  /** Whose key the run uses: the workspace's own, the operator's environment key, or none (mock, keyless). */
  credentialOwner: CredentialOwner;
};

export type CredentialOwner = 'workspace' | 'operator' | 'none';

/** What a model is resolved for: a run calls it; a payload (`gateway_payload`) is only rendered for it. */
export type ModelPurpose = 'run' | 'payload';

export type ModelResolverOptions = {
  fallbacks: ProviderFallbacks;
  shareEnvironmentKeys: EnvironmentKeySharing;
  /** Whether the instance has exactly one workspace (`auto` key sharing); answered from the database. */
  hasSingleWorkspace: () => Promise<boolean>;
  /** `LECTERN_MOCK_PROVIDER`: false refuses `mock/...` references. */
  mockProvider: boolean;
  /** How workspace-configured providers are reached: through the outbound guard (their URLs are tenant input). */
  providerFetch: typeof fetch;
};

/** How long another node may still use a provider's previous key or URL after a change. */
const resolvedModelCacheMs = 5_000;

type Target = { kind: ProviderKind; modelName: string; provider?: ProviderRow };

function missingKey(kind: ProviderKind): ProviderError {
  return new ProviderError(
    `No API key is configured for provider "${kind}": add one with POST /v1/providers`,
    false,
    400,
  );
}

/**
 * The model of a payload rendered without a key: the payload names it, nothing may call it (a call
 * is refused as a run without a key is).
 */
function keylessModel({ kind, modelName }: Target): LanguageModelV3 {
  const refuse = () => Promise.reject(missingKey(kind));
  return {
    specificationVersion: 'v3',
    provider: kind,
    modelId: modelName,
    supportedUrls: {},
    doGenerate: refuse,
    doStream: refuse,
  };
}

type OwnedCredentials = { credentials: ProviderCredentials; owner: CredentialOwner };

/** How long the answer to "is this a single-workspace instance?" is kept. */
const workspaceCountCacheMs = 5_000;

/**
 * Turns an Action's `model` — `"<provider>/<model>"` (provider = kind or nickname) or a model record's
 * GUID — into an AI SDK model of the workspace with decrypted credentials. Workspace providers win
 * over the instance-wide environment fallbacks, which are the operator's: a workspace runs on them
 * only as `LECTERN_SHARE_ENV_PROVIDER_KEYS` allows.
 */
export interface ModelResolver {
  /** Checks a reference when an Action is saved: it must name a known provider and, for mock, a mock model. */
  validate(workspaceId: string, reference: string): Promise<void>;
  /** Resolved models are kept a few seconds: provider lookups and key decryption are off the hot path. */
  resolve(workspaceId: string, reference: string, purpose?: ModelPurpose): Promise<ResolvedModel>;
  /** The workspace's default model (a model record of its default provider), else `fallback`. */
  defaultReference(workspaceId: string, fallback: string): Promise<string>;
  /** A configured provider's embedding model (a Context's `embeddingModel`), kept like `resolve`: every search embeds its query. */
  resolveEmbedding(workspaceId: string, reference: string): Promise<ResolvedEmbeddingModel>;
  /** Forgets a workspace's resolved models after its providers or model records changed. */
  invalidate(workspaceId: string): void;
}

export function createModelResolver(dependencies: {
  repository: ProviderRepository;
  secretBox: SecretBox;
  options: ModelResolverOptions;
}): ModelResolver {
  const { repository, secretBox, options } = dependencies;
  const { fallbacks } = options;
  const singleWorkspace = createReadCache<boolean>({ ttlMs: workspaceCountCacheMs });

  async function target(workspaceId: string, reference: string, field = 'model'): Promise<Target> {
    const found = await findTarget(workspaceId, reference, field);
    if (found.kind === 'mock' && !options.mockProvider) {
      throw new ValidationError(field, 'the mock provider is turned off on this instance');
    }
    return found;
  }

  async function findTarget(workspaceId: string, reference: string, field: string): Promise<Target> {
    if (isGuid(reference)) {
      const found = await repository.findModel(workspaceId, reference);
      if (!found) throw new ValidationError(field, 'no model record has this GUID');
      return {
        kind: found.provider.kind,
        modelName: found.model.name,
        provider: found.provider,
      };
    }
    const parts = splitModelReference(reference);
    if (!parts) throw new ValidationError(field, 'must be "<provider>/<model>" or a model GUID');
    const provider = await repository.findByPrefix(workspaceId, parts.prefix);
    if (provider) return { kind: provider.kind, modelName: parts.model, provider };
    if (!isProviderKind(parts.prefix)) {
      throw new ValidationError(
        field,
        `unknown provider "${parts.prefix}" (not a provider kind or nickname)`,
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
    if (!offersEmbeddings(found.kind)) {
      throw new ValidationError('embeddingModel', `provider "${found.kind}" has no embedding models`);
    }
    const { credentials } = await requireCredentials(found);
    return {
      kind: found.kind,
      modelName: found.modelName,
      embeddingModel: await createEmbeddingModel(found.kind, found.modelName, credentials),
    };
  }

  function environmentCredentials(kind: ProviderKind): ProviderCredentials | undefined {
    const fallback = fallbacks[kind];
    return fallback && { apiKey: fallback.key, baseUrl: fallback.url };
  }

  async function environmentKeysShared(): Promise<boolean> {
    if (options.shareEnvironmentKeys !== 'auto') return options.shareEnvironmentKeys === 'on';
    return singleWorkspace.get('instance', options.hasSingleWorkspace);
  }

  async function credentialsOf({ kind, provider }: Target): Promise<OwnedCredentials | undefined> {
    if (provider) {
      const apiKey = provider.encryptedKey ? secretBox.decrypt(provider.encryptedKey) : undefined;
      if (!apiKey && providerKindSpec(kind).keyRequired) return undefined;
      return {
        credentials: { apiKey, baseUrl: provider.url ?? undefined, fetch: options.providerFetch },
        owner: apiKey ? 'workspace' : 'none',
      };
    }
    if (kind === 'mock') return { credentials: {}, owner: 'none' };
    const operator = environmentCredentials(kind);
    if (!operator || !(await environmentKeysShared())) return undefined;
    return { credentials: operator, owner: 'operator' };
  }

  async function requireCredentials(found: Target): Promise<OwnedCredentials> {
    const owned = await credentialsOf(found);
    if (!owned) throw missingKey(found.kind);
    return owned;
  }

  async function resolveUncached(
    workspaceId: string,
    reference: string,
    purpose: ModelPurpose,
  ): Promise<ResolvedModel> {
    const found = await target(workspaceId, reference);
    // A payload is rendered for a caller that forwards it, usually with its own provider key: the
    // workspace's key goes with it when there is one, and none is required.
    const owned: OwnedCredentials =
      purpose === 'payload'
        ? ((await credentialsOf(found)) ?? { credentials: {}, owner: 'none' })
        : await requireCredentials(found);
    const { credentials, owner } = owned;
    if (purpose === 'payload' && owner === 'none' && found.kind !== 'mock') {
      return {
        kind: found.kind,
        modelName: found.modelName,
        providerGuid: found.provider?.id,
        languageModel: keylessModel(found),
        credentials,
        credentialOwner: owner,
      };
    }
    return {
      kind: found.kind,
      modelName: found.modelName,
      providerGuid: found.provider?.id,
      languageModel: await createLanguageModel(found.kind, found.modelName, credentials),
      credentials,
      credentialOwner: owner,
    };
  }

  return {
    /** Checks a reference when an Action is saved: it must name a known provider and, for mock, a mock model. */
    async validate(workspaceId: string, reference: string): Promise<void> {
      const { kind, modelName } = await target(workspaceId, reference);
      if (kind === 'mock' && !isMockModelName(modelName)) {
        throw new ValidationError(
          'model',
          `unknown mock model "${modelName}" (echo, slow, error, tool, json)`,
        );
      }
    },

    /** Resolved models are kept a few seconds: provider lookups and key decryption are off the hot path. */
    resolve(workspaceId: string, reference: string, purpose: ModelPurpose = 'run'): Promise<ResolvedModel> {
      return resolved.get(`${workspaceId}:${reference}:${purpose}`, () =>
        resolveUncached(workspaceId, reference, purpose),
      );
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
