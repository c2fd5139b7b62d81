import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isGuid } from '../../core/guid.js';
import type { WorkspaceSettings } from '../../core/json-columns.js';
import type { Page, Pagination } from '../../core/pagination.js';
import { AppError, NotFoundError } from '../../errors.js';
import { createReadCache } from '../../platform/read-cache.js';
import type { ApiKeyRow, WorkspaceRepository, WorkspaceRow } from './repository.js';

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

export type Workspace = WorkspaceRow;
/** An API key as stored: its prefix and hash, never the key. */
export type ApiKey = ApiKeyRow;

export interface WorkspaceService {
  /** A new workspace with its first API key; the key is returned once and only its hash is kept. */
  createWorkspace(name: string): Promise<{ workspace: Workspace; apiKey: string }>;
  /** On an empty database: workspace `default` and one key. Returns the key when it was created. */
  bootstrap(initialApiKey: string | undefined): Promise<{ created: boolean; apiKey?: string }>;
  listWorkspaces(pagination: Pagination): Promise<Page<Workspace>>;
  /** By GUID, or by name (for the CLI). */
  findWorkspace(reference: string): Promise<Workspace>;
  /** Merges the given settings into the workspace's. */
  updateSettings(workspaceGuid: string, settings: WorkspaceSettings): Promise<Workspace>;
  rename(workspaceGuid: string, name: string): Promise<Workspace>;
  /** Another key for the workspace (by GUID or name); the key is returned once. */
  createApiKey(workspaceReference: string): Promise<{ key: ApiKey; apiKey: string }>;
  listApiKeys(workspaceGuid: string, pagination: Pagination): Promise<Page<ApiKey>>;
  /**
   * Revokes a key; revoking it again answers the first revocation. With `workspaceId`, a key of
   * another workspace is as missing as an unknown one.
   */
  revokeApiKey(keyGuid: string, workspaceId?: string): Promise<ApiKey>;
  /** The workspace an API key belongs to, or undefined for an unknown or revoked key (cached 5 s). */
  authenticate(apiKey: string): Promise<AuthenticatedWorkspace | undefined>;
}

/** How long another node may still accept a revoked key or old settings (this node forgets at once). */
const authenticationCacheMs = 5_000;

/** A workspace has as many live keys as it may: one must be revoked before another is made. */
export class ApiKeyLimitError extends AppError {
  constructor(limit: number) {
    super(
      409,
      'api_key_limit',
      `This workspace has ${limit} active API keys, the most it may have; revoke one before creating another`,
    );
  }
}

export function createWorkspaceService(
  repository: WorkspaceRepository,
  options: { apiKeysPerWorkspace: number },
): WorkspaceService {
  const authenticated = createReadCache<AuthenticatedWorkspace | undefined>({ ttlMs: authenticationCacheMs });

  async function findWorkspace(reference: string): Promise<Workspace> {
    const workspace = isGuid(reference)
      ? await repository.findWorkspace(reference)
      : await repository.findWorkspaceByName(reference);
    if (!workspace) throw new NotFoundError('Workspace not found');
    return workspace;
  }

  return {
    findWorkspace,

    async createWorkspace(name) {
      const id = randomUUID();
      const apiKey = generateApiKey();
      const workspace = await repository.insertWorkspace({ id, name }, keyRow(id, apiKey));
      return { workspace, apiKey };
    },

    async bootstrap(initialApiKey) {
      const id = randomUUID();
      const apiKey = initialApiKey ?? generateApiKey();
      const created = await repository.insertFirstWorkspace({ id, name: 'default' }, keyRow(id, apiKey));
      return created ? { created, apiKey } : { created };
    },

    listWorkspaces(pagination) {
      return repository.listWorkspaces(pagination.skip, pagination.limit);
    },

    async updateSettings(workspaceGuid, settings) {
      const row = await repository.updateSettings(workspaceGuid, settings);
      if (!row) throw new NotFoundError('Workspace not found');
      authenticated.invalidate();
      return row;
    },

    async rename(workspaceGuid, name) {
      const row = await repository.renameWorkspace(workspaceGuid, name);
      if (!row) throw new NotFoundError('Workspace not found');
      authenticated.invalidate();
      return row;
    },

    async createApiKey(workspaceReference) {
      const workspace = await findWorkspace(workspaceReference);
      const apiKey = generateApiKey();
      const key = await repository.insertApiKeyWithin(
        keyRow(workspace.id, apiKey),
        options.apiKeysPerWorkspace,
      );
      if (!key) throw new ApiKeyLimitError(options.apiKeysPerWorkspace);
      return { key, apiKey };
    },

    async listApiKeys(workspaceGuid, pagination) {
      const workspace = await findWorkspace(workspaceGuid);
      return repository.listApiKeys(workspace.id, pagination.skip, pagination.limit);
    },

    async revokeApiKey(keyGuid, workspaceId) {
      if (workspaceId !== undefined && (await repository.findApiKey(keyGuid))?.workspaceId !== workspaceId)
        throw new NotFoundError('API key not found');
      const revoked = await repository.revokeApiKey(keyGuid);
      authenticated.invalidate();
      if (revoked) return revoked;
      const existing = await repository.findApiKey(keyGuid);
      if (!existing) throw new NotFoundError('API key not found');
      return existing;
    },

    async authenticate(apiKey) {
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
