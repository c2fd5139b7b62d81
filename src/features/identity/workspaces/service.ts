import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isGuid } from '../../../core/guid.js';
import type { WorkspaceSettings } from '../../../core/json-columns.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { type KeyRole, keyRights } from '../../../core/roles.js';
import type { SignedRequest } from '../../../core/signed-request.js';
import { AppError, NotFoundError } from '../../../errors.js';
import { createReadCache } from '../../../platform/read-cache.js';
import type {
  ApiKeyRow,
  ApiKeyWithCreator,
  KeyFilter,
  KeyHolder,
  WorkspaceRepository,
  WorkspaceRow,
} from './repository.js';

export type { AuthenticatedWorkspace, SignedRequest } from '../../../core/signed-request.js';

/** What a new key is: its name, role and creator (none for the bootstrap's, the admin API's, the CLI's). */
export type NewKey = { name?: string; role?: KeyRole; createdBy?: string };

const keyPrefixLength = 12;

/** 256 random bits; `lec_` makes a leaked key recognisable to secret scanners. */
export function generateApiKey(): string {
  return `lec_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function keyRow(workspaceId: string, key: string, described: NewKey = {}) {
  return {
    id: randomUUID(),
    workspaceId,
    prefix: key.slice(0, keyPrefixLength),
    keyHash: hashApiKey(key),
    name: described.name ?? '',
    role: described.role ?? 'admin',
    createdBy: described.createdBy ?? null,
  };
}

/** A key's principal: its role's rights, never beyond its creator's current role. */
export function keyPrincipal({ workspace, key, creator }: KeyHolder): SignedRequest {
  return {
    workspace: { id: workspace.id, name: workspace.name, settings: workspace.settings },
    principal: {
      type: 'key',
      role: key.role,
      rights: keyRights(key.role, creator?.role ?? undefined),
      person: creator ? { id: creator.id, email: creator.email, name: creator.name } : undefined,
      key: { id: key.id, prefix: key.prefix, name: key.name },
    },
  };
}

/** A key's use is written at most this often per node. */
const lastUseWriteMs = 60_000;

export type Workspace = WorkspaceRow;
/** An API key as stored: its prefix and hash, never the key. */
export type ApiKey = ApiKeyRow;
export type ListedApiKey = ApiKeyWithCreator;

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
  createApiKey(workspaceReference: string, described?: NewKey): Promise<{ key: ApiKey; apiKey: string }>;
  /** The workspace's keys, or only those a person made (null: creator-less ones), or one by GUID. */
  listApiKeys(workspaceGuid: string, pagination: Pagination, filter?: KeyFilter): Promise<Page<ListedApiKey>>;
  /** A key of the workspace, with its creator; 404 for another workspace's. */
  findApiKey(workspaceId: string, keyGuid: string): Promise<ApiKey>;
  /**
   * Revokes a key; revoking it again answers the first revocation. With `workspaceId`, a key of
   * another workspace is as missing as an unknown one.
   */
  revokeApiKey(keyGuid: string, workspaceId?: string): Promise<ApiKey>;
  /** Revokes every key a person made, in one workspace or in all (`workspaceId` undefined). */
  revokeApiKeysOf(personId: string, workspaceId: string | undefined): Promise<void>;
  /**
   * The workspace and principal of an API key, or undefined for an unknown or revoked key, or one
   * whose creator has left the workspace or been deactivated (cached 5 s).
   */
  authenticate(apiKey: string): Promise<SignedRequest | undefined>;
  /** The same for a key by its GUID (a console session made with a key), uncached. */
  authenticateKeyId(keyId: string): Promise<SignedRequest | undefined>;
  /** Forgets cached authentications at once (a member removed, a role changed). */
  forgetAuthentications(): void;
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

export function createWorkspaceService(dependencies: {
  repository: WorkspaceRepository;
  options: { apiKeysPerWorkspace: number };
}): WorkspaceService {
  const { repository, options } = dependencies;
  const authenticated = createReadCache<SignedRequest | undefined>({ ttlMs: authenticationCacheMs });
  const lastUseWritten = new Map<string, number>();

  /** Notes the key's use, at most once a minute per node, never holding the request up. */
  function noteUse(keyId: string): void {
    const at = Date.now();
    if (at - (lastUseWritten.get(keyId) ?? 0) < lastUseWriteMs) return;
    lastUseWritten.set(keyId, at);
    if (lastUseWritten.size > 10_000) lastUseWritten.clear();
    repository.touchApiKey(keyId, new Date(at)).catch(() => lastUseWritten.delete(keyId));
  }

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

    async createApiKey(workspaceReference, described) {
      const workspace = await findWorkspace(workspaceReference);
      const apiKey = generateApiKey();
      const key = await repository.insertApiKeyWithin(
        keyRow(workspace.id, apiKey, described),
        options.apiKeysPerWorkspace,
      );
      if (!key) throw new ApiKeyLimitError(options.apiKeysPerWorkspace);
      return { key, apiKey };
    },

    async listApiKeys(workspaceGuid, pagination, filter = {}) {
      const workspace = await findWorkspace(workspaceGuid);
      return repository.listApiKeys(workspace.id, pagination.skip, pagination.limit, filter);
    },

    async findApiKey(workspaceId, keyGuid) {
      const key = await repository.findApiKey(keyGuid);
      if (key?.workspaceId !== workspaceId) throw new NotFoundError('API key not found');
      return key;
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

    async revokeApiKeysOf(personId, workspaceId) {
      await repository.revokeApiKeysOf(personId, workspaceId);
      authenticated.invalidate();
    },

    async authenticate(apiKey) {
      const keyHash = hashApiKey(apiKey);
      const signed = await authenticated.get(keyHash, async () => {
        const holder = await repository.findKeyHolder({ keyHash });
        return holder && keyPrincipal(holder);
      });
      if (signed) noteUse(signed.principal.key!.id);
      return signed;
    },

    async authenticateKeyId(keyId) {
      const holder = await repository.findKeyHolder({ id: keyId });
      if (!holder) return undefined;
      noteUse(keyId);
      return keyPrincipal(holder);
    },

    forgetAuthentications: () => authenticated.invalidate(),
  };
}
