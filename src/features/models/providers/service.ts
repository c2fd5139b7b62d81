import { randomUUID } from 'node:crypto';
import { isGuid } from '../../../core/guid.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../errors.js';
import {
  isProviderKind,
  type ProviderKind,
  providerKindSpec,
  providerKinds,
} from '../../../llm/provider-kinds.js';
import { isUniqueViolation } from '../../../platform/database/errors.js';
import type { SecretBox } from '../../../platform/secrets.js';
import { testProviderConnection } from './key-validation.js';
import type { ModelRow, ProviderRepository, ProviderRow } from './repository.js';
import type { ConnectionTest } from './responses.js';
import type { CreateModelInput, CreateProviderInput, UpdateProviderInput } from './schemas.js';

/** A model provider of a workspace; its key is stored encrypted and never leaves the service. */
export type Provider = ProviderRow;

/** A model record (a named model of a provider, possibly the workspace default) with its provider. */
export type ProviderModel = { model: ModelRow; provider: Provider };

export interface ProviderService {
  create(workspaceId: string, input: CreateProviderInput): Promise<Provider>;
  /** The provider, or 404 — also for one of another workspace. */
  require(workspaceId: string, id: string): Promise<Provider>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<Provider>>;
  update(workspaceId: string, id: string, input: UpdateProviderInput): Promise<Provider>;
  /** Refused (409) while model records name the provider. */
  remove(workspaceId: string, id: string): Promise<void>;
  /**
   * A model record of the provider given by GUID, nickname or kind; with a key or URL (the official
   * SDK's `models.create`), of a new provider of that kind.
   */
  createModel(workspaceId: string, input: CreateModelInput): Promise<ProviderModel>;
  defaultModel(workspaceId: string): Promise<ProviderModel>;
  requireModel(workspaceId: string, id: string): Promise<ProviderModel>;
  listModels(workspaceId: string, pagination: Pagination): Promise<Page<ProviderModel>>;
  removeModel(workspaceId: string, id: string): Promise<void>;
  /** Asks the provider for its model list with its stored key: the console's "test connection". */
  testConnection(workspaceId: string, id: string): Promise<ConnectionTest>;
  /** The kinds a provider may have on this instance (no `mock` where it is turned off). */
  kinds(): ProviderKind[];
}

function nicknameConflict(error: unknown): never {
  if (isUniqueViolation(error))
    throw new ConflictError('nickname: another provider of this workspace has it');
  throw error;
}

/** `changed` tells the model resolver that a workspace's providers changed, so it forgets them. */
export function createProviderService(dependencies: {
  repository: ProviderRepository;
  secretBox: SecretBox;
  changed: (workspaceId: string) => void;
  /** The outbound guard's fetch, which runs use for a provider's own URL. */
  providerFetch: typeof fetch;
  /** `LECTERN_MOCK_PROVIDER`: whether the mock kind is offered. */
  mockProvider: boolean;
}): ProviderService {
  const { repository, secretBox, changed, providerFetch, mockProvider } = dependencies;
  async function requireProvider(workspaceId: string, id: string): Promise<Provider> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Provider not found');
    return row;
  }

  /** The provider a new model record belongs to (see `createModel`). */
  async function modelProvider(workspaceId: string, input: CreateModelInput): Promise<Provider> {
    if (input.key !== undefined || input.url !== undefined) {
      const kind = input.provider.toLowerCase();
      if (!isProviderKind(kind))
        throw new ValidationError(
          'provider',
          `with a key or url, give a provider kind (${providerKinds.join(', ')})`,
        );
      return service.create(workspaceId, { provider: kind, key: input.key, url: input.url });
    }
    const provider = isGuid(input.provider)
      ? await repository.find(workspaceId, input.provider)
      : await repository.findByPrefix(workspaceId, input.provider);
    if (!provider) throw new NotFoundError('Provider not found');
    return provider;
  }

  const service: ProviderService = {
    require: requireProvider,

    async create(workspaceId, input) {
      const row = await repository
        .save({
          id: randomUUID(),
          workspaceId,
          kind: input.provider,
          nickname: input.nickname ?? null,
          url: input.url ?? null,
          encryptedKey: input.key === undefined ? null : secretBox.encrypt(input.key),
          isDefault: input.default ?? false,
        })
        .catch(nicknameConflict);
      changed(workspaceId);
      return row;
    },

    list(workspaceId, pagination) {
      return repository.list(workspaceId, pagination.skip, pagination.limit);
    },

    async update(workspaceId, id, input) {
      const existing = await requireProvider(workspaceId, id);
      const url = input.url === undefined ? existing.url : input.url;
      if (providerKindSpec(existing.kind).urlRequired && !url) {
        throw new ValidationError('url', 'required for this provider');
      }
      const encryptedKey =
        input.key === undefined
          ? existing.encryptedKey
          : input.key === null
            ? null
            : secretBox.encrypt(input.key);
      const row = await repository
        .save(
          {
            ...existing,
            url,
            encryptedKey,
            nickname: input.nickname === undefined ? existing.nickname : input.nickname,
            isDefault: input.default ?? existing.isDefault,
          },
          existing.id,
        )
        .catch(nicknameConflict);
      changed(workspaceId);
      return row;
    },

    async remove(workspaceId, id) {
      await requireProvider(workspaceId, id);
      const modelCount = await repository.countModels(workspaceId, id);
      if (modelCount > 0)
        throw new ConflictError(`Provider has ${modelCount} model record(s); delete them first`);
      await repository.remove(workspaceId, id);
      changed(workspaceId);
    },

    async createModel(workspaceId, input) {
      const provider = await modelProvider(workspaceId, input);
      const model = await repository.insertModel({
        id: randomUUID(),
        workspaceId,
        providerId: provider.id,
        name: (input.name ?? input.llm)!,
        isDefault: input.default ?? false,
      });
      changed(workspaceId);
      return { model, provider };
    },

    async defaultModel(workspaceId) {
      const found = await repository.findDefaultModel(workspaceId);
      if (!found) {
        throw new NotFoundError(
          'No default model: create a model record with "default": true, or mark a provider default',
        );
      }
      return found;
    },

    async requireModel(workspaceId, id) {
      const found = await repository.findModel(workspaceId, id);
      if (!found) throw new NotFoundError('Model not found');
      return found;
    },

    listModels(workspaceId, pagination) {
      return repository.listModels(workspaceId, pagination.skip, pagination.limit);
    },

    async removeModel(workspaceId, id) {
      if (!(await repository.removeModel(workspaceId, id))) throw new NotFoundError('Model not found');
      changed(workspaceId);
    },

    async testConnection(workspaceId, id) {
      const provider = await requireProvider(workspaceId, id);
      const key = provider.encryptedKey ? secretBox.decrypt(provider.encryptedKey) : undefined;
      return testProviderConnection({ kind: provider.kind, url: provider.url, key }, providerFetch);
    },

    kinds() {
      return providerKinds.filter((kind) => mockProvider || kind !== 'mock');
    },
  };
  return service;
}
