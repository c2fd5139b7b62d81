import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { Pagination } from '../../http/pagination.js';
import { type ProviderKind, urlRequiredKinds } from '../../llm/provider-kinds.js';
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

  return {
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
      const provider = await repository.find(workspaceId, input.provider);
      if (!provider) throw new NotFoundError('Provider not found');
      const model = await repository.insertModel({
        id: randomUUID(),
        workspaceId,
        providerId: provider.id,
        name: input.name,
      });
      return presentModel(model, provider);
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
}

export type ProviderService = ReturnType<typeof createProviderService>;
