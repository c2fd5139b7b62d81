import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isGuid } from '../../core/guid.js';
import type { WorkspaceSettings } from '../../core/json-columns.js';
import type { Pagination } from '../../core/pagination.js';
import { NotFoundError } from '../../errors.js';
import { createReadCache } from '../../platform/read-cache.js';
import type { WorkspaceRepository, WorkspaceRow } from './repository.js';

export type AuthenticatedWorkspace = {
  id: string;
  name: string;
  settings: WorkspaceSettings;
  apiKeyId: string;
};

const keyPrefixLength = 12;

/** 256 random bits; `lec_` makes a leaked key recognisable to secret scanners. */
export function generateApiKey(): string {
  return `lec_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function keyRow(workspaceId: string, key: string) {
  return { id: randomUUID(), workspaceId, prefix: key.slice(0, keyPrefixLength), keyHash: hashApiKey(key) };
}

export function presentWorkspace(row: WorkspaceRow) {
  return {
    guid: row.id,
    name: row.name,
    settings: {
      allow_model_overrides: row.settings.allowModelOverrides !== false,
      rate_limit_per_minute: row.settings.requestsPerMinute ?? null,
    },
    created_at: row.createdAt.toISOString(),
  };
}

/** How long another node may still accept a revoked key or old settings (this node forgets at once). */
const authenticationCacheMs = 5_000;

export function createWorkspaceService(repository: WorkspaceRepository) {
  const authenticated = createReadCache<AuthenticatedWorkspace | undefined>({ ttlMs: authenticationCacheMs });

  return {
    /** A new workspace with its first API key; the key is returned once and only its hash is kept. */
    async createWorkspace(name: string) {
      const id = randomUUID();
      const apiKey = generateApiKey();
      const workspace = await repository.insertWorkspace({ id, name }, keyRow(id, apiKey));
      return { ...presentWorkspace(workspace), api_key: apiKey };
    },

    /** On an empty database: workspace `default` and one key. Returns the key when it was created. */
    async bootstrap(initialApiKey: string | undefined): Promise<{ created: boolean; apiKey?: string }> {
      const id = randomUUID();
      const apiKey = initialApiKey ?? generateApiKey();
      const created = await repository.insertFirstWorkspace({ id, name: 'default' }, keyRow(id, apiKey));
      return created ? { created, apiKey } : { created };
    },

    async listWorkspaces(pagination: Pagination) {
      const { rows, total } = await repository.listWorkspaces(pagination.skip, pagination.limit);
      return { rows: rows.map(presentWorkspace), total };
    },

    /** By GUID, or by name (for the CLI). */
    async findWorkspace(reference: string): Promise<WorkspaceRow> {
      const workspace = isGuid(reference)
        ? await repository.findWorkspace(reference)
        : await repository.findWorkspaceByName(reference);
      if (!workspace) throw new NotFoundError('Workspace not found');
      return workspace;
    },

    /** Merges the given settings into the workspace's. */
    async updateSettings(workspaceGuid: string, settings: WorkspaceSettings) {
      const row = await repository.updateSettings(workspaceGuid, settings);
      if (!row) throw new NotFoundError('Workspace not found');
      authenticated.invalidate();
      return presentWorkspace(row);
    },

    async rename(workspaceGuid: string, name: string) {
      const row = await repository.renameWorkspace(workspaceGuid, name);
      if (!row) throw new NotFoundError('Workspace not found');
      authenticated.invalidate();
      return presentWorkspace(row);
    },

    async createApiKey(workspaceReference: string) {
      const workspace = await this.findWorkspace(workspaceReference);
      const apiKey = generateApiKey();
      const row = await repository.insertApiKey(keyRow(workspace.id, apiKey));
      return { guid: row.id, api_key: apiKey, prefix: row.prefix, workspace: workspace.id };
    },

    async listApiKeys(workspaceGuid: string) {
      const workspace = await this.findWorkspace(workspaceGuid);
      const keys = await repository.listApiKeys(workspace.id);
      return keys.map((key) => ({
        guid: key.id,
        prefix: key.prefix,
        created_at: key.createdAt.toISOString(),
        revoked_at: key.revokedAt?.toISOString() ?? null,
      }));
    },

    async revokeApiKey(keyGuid: string) {
      const revoked = await repository.revokeApiKey(keyGuid);
      authenticated.invalidate();
      if (revoked) return { guid: revoked.id, revoked_at: revoked.revokedAt!.toISOString() };
      const existing = await repository.findApiKey(keyGuid);
      if (!existing) throw new NotFoundError('API key not found');
      return { guid: existing.id, revoked_at: existing.revokedAt!.toISOString() };
    },

    async authenticate(apiKey: string): Promise<AuthenticatedWorkspace | undefined> {
      const keyHash = hashApiKey(apiKey);
      return authenticated.get(keyHash, async () => {
        const found = await repository.findWorkspaceByKeyHash(keyHash);
        if (!found) return undefined;
        const { workspace, keyId } = found;
        return { id: workspace.id, name: workspace.name, settings: workspace.settings, apiKeyId: keyId };
      });
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
