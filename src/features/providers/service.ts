import { randomUUID } from 'node:crypto';
import { isGuid } from '../../core/guid.js';
import type { Pagination } from '../../core/pagination.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import {
  isProviderKind,
  type ProviderKind,
  providerKinds,
  urlRequiredKinds,
} from '../../llm/provider-kinds.js';
import { isUniqueViolation } from '../../platform/database/errors.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ModelRow, ProviderRepository, ProviderRow } from './repository.js';
import type { CreateModelInput, CreateProviderInput, UpdateProviderInput } from './schemas.js';

/** The provider record as clients see it: never the key, only whether one is set. */
export function presentProvider(row: ProviderRow) {
  return {
    guid: row.id,
    provider: row.kind,
    nickname: row.nickname,
    // The official SDK's Provider has a display name.
    name: row.nickname ?? row.kind,
    url: row.url,
    default: row.isDefault,
    has_key: row.encryptedKey !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentModel(model: ModelRow, provider: ProviderRow) {
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

function nicknameConflict(error: unknown): never {
  if (isUniqueViolation(error))
    throw new ConflictError('nickname: another provider of this workspace has it');
  throw error;
}

/** `changed` tells the model resolver that a workspace's providers changed, so it forgets them. */
export function createProviderService(
  repository: ProviderRepository,
  secretBox: SecretBox,
  changed: (workspaceId: string) => void,
) {
  async function requireProvider(workspaceId: string, id: string): Promise<ProviderRow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Provider not found');
    return row;
  }

  /**
   * The provider a new model record belongs to: by GUID, nickname or kind; with a key or URL (the
   * official SDK's `models.create`), a new provider of that kind.
   */
  async function modelProvider(workspaceId: string, input: CreateModelInput): Promise<ProviderRow> {
    if (input.key !== undefined || input.url !== undefined) {
      const kind = input.provider.toLowerCase();
      if (!isProviderKind(kind))
        throw new ValidationError(
          `with a key or url, give a provider kind (${providerKinds.join(', ')})`,
          'provider',
        );
      const created = await service.create(workspaceId, { provider: kind, key: input.key, url: input.url });
      return requireProvider(workspaceId, created.guid);
    }
    const provider = isGuid(input.provider)
      ? await repository.find(workspaceId, input.provider)
      : await repository.findByPrefix(workspaceId, input.provider);
    if (!provider) throw new NotFoundError('Provider not found');
    return provider;
  }

  const service = {
    async create(workspaceId: string, input: CreateProviderInput) {
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
      return presentProvider(row);
    },

    async get(workspaceId: string, id: string) {
      return presentProvider(await requireProvider(workspaceId, id));
    },

    async list(workspaceId: string, pagination: Pagination) {
      const { rows, total } = await repository.list(workspaceId, pagination.skip, pagination.limit);
      return { rows: rows.map(presentProvider), total };
    },

    async update(workspaceId: string, id: string, input: UpdateProviderInput) {
      const existing = await requireProvider(workspaceId, id);
      const url = input.url === undefined ? existing.url : input.url;
      if (urlRequiredKinds.has(existing.kind as ProviderKind) && !url) {
        throw new ValidationError('required for this provider', 'url');
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
      return presentProvider(row);
    },

    async remove(workspaceId: string, id: string) {
      await requireProvider(workspaceId, id);
      const modelCount = await repository.countModels(workspaceId, id);
      if (modelCount > 0)
        throw new ConflictError(`Provider has ${modelCount} model record(s); delete them first`);
      await repository.remove(workspaceId, id);
      changed(workspaceId);
      return { guid: id, deleted: true };
    },

    async createModel(workspaceId: string, input: CreateModelInput) {
      const provider = await modelProvider(workspaceId, input);
      const model = await repository.insertModel({
        id: randomUUID(),
        workspaceId,
        providerId: provider.id,
        name: (input.name ?? input.llm)!,
        isDefault: input.default ?? false,
      });
      changed(workspaceId);
      return presentModel(model, provider);
    },

    async defaultModel(workspaceId: string) {
      const found = await repository.findDefaultModel(workspaceId);
      if (!found) {
        throw new NotFoundError(
          'No default model: create a model record with "default": true, or mark a provider default',
        );
      }
      return presentModel(found.model, found.provider);
    },

    async getModel(workspaceId: string, id: string) {
      const found = await repository.findModel(workspaceId, id);
      if (!found) throw new NotFoundError('Model not found');
      return presentModel(found.model, found.provider);
    },

    async listModels(workspaceId: string, pagination: Pagination) {
      const { rows, total } = await repository.listModels(workspaceId, pagination.skip, pagination.limit);
      return { rows: rows.map(({ model, provider }) => presentModel(model, provider)), total };
    },

    async removeModel(workspaceId: string, id: string) {
      if (!(await repository.removeModel(workspaceId, id))) throw new NotFoundError('Model not found');
      changed(workspaceId);
      return { guid: id, deleted: true };
    },
  };
  return service;
}

export type ProviderService = ReturnType<typeof createProviderService>;
