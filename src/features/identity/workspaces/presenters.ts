import type {
  ApiKeyResponse,
  CreatedApiKeyResponse,
  NewApiKeyResponse,
  NewWorkspaceResponse,
  RevokedApiKeyResponse,
  WorkspaceResponse,
} from './responses.js';
import type { ApiKey, ListedApiKey, Workspace } from './service.js';

export function presentWorkspace(workspace: Workspace): WorkspaceResponse {
  return {
    guid: workspace.id,
    name: workspace.name,
    settings: {
      allow_model_overrides: workspace.settings.allowModelOverrides !== false,
      rate_limit_per_minute: workspace.settings.requestsPerMinute ?? null,
    },
    created_at: workspace.createdAt.toISOString(),
  };
}

/** A new workspace with its first key, shown this once. */
export function presentNewWorkspace(created: { workspace: Workspace; apiKey: string }): NewWorkspaceResponse {
  return { ...presentWorkspace(created.workspace), api_key: created.apiKey };
}

/** A key as listed: its prefix identifies it; the key itself is never stored. */
export function presentApiKey(key: ListedApiKey): ApiKeyResponse {
  return {
    guid: key.id,
    name: key.name,
    role: key.role,
    prefix: key.prefix,
    created_by: key.creator && { guid: key.creator.id, email: key.creator.email, name: key.creator.name },
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** A key a person just made, the key itself shown this once. */
export function presentCreatedApiKey(key: ListedApiKey, apiKey: string): CreatedApiKeyResponse {
  return { ...presentApiKey(key), api_key: apiKey };
}

/** A new key, shown this once. */
export function presentNewApiKey(created: { key: ApiKey; apiKey: string }): NewApiKeyResponse {
  return { guid: created.key.id, api_key: created.apiKey, prefix: created.key.prefix };
}

export function presentRevokedApiKey(key: ApiKey): RevokedApiKeyResponse {
  return { guid: key.id, revoked_at: key.revokedAt!.toISOString() };
}
