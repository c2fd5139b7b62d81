import { z } from 'zod';
import { keyRoles } from '../../../core/roles.js';
import { guid, timestamp } from '../../../core/wire.js';
import { personSummary } from '../people/responses.js';

export const workspaceResponse = z
  .strictObject({
    guid,
    name: z.string(),
    settings: z.strictObject({
      allow_model_overrides: z.boolean(),
      rate_limit_per_minute: z.number().int().nullable().describe('null: the instance’s default'),
    }),
    created_at: timestamp,
  })
  .meta({ id: 'Workspace' });

/** A new workspace with its first key, shown this once. */
export const newWorkspaceResponse = workspaceResponse.extend({ api_key: z.string() });

/** A key as listed: its prefix identifies it; the key itself is never stored. */
export const apiKeyResponse = z
  .strictObject({
    guid,
    name: z.string(),
    role: z.enum(keyRoles),
    prefix: z.string(),
    created_by: personSummary
      .nullable()
      .describe('the person who made it; null for the bootstrap’s, the admin API’s and the CLI’s'),
    created_at: timestamp,
    last_used_at: timestamp.nullable().describe('to the minute'),
    revoked_at: timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

/** A key just made by a person: the key itself is shown this once. */
export const createdApiKeyResponse = apiKeyResponse.extend({ api_key: z.string() });

/** A new key, shown this once. */
export const newApiKeyResponse = z.strictObject({ guid, api_key: z.string(), prefix: z.string() });

export const revokedApiKeyResponse = z.strictObject({ guid, revoked_at: timestamp });

export type WorkspaceResponse = z.output<typeof workspaceResponse>;
export type NewWorkspaceResponse = z.output<typeof newWorkspaceResponse>;
export type ApiKeyResponse = z.output<typeof apiKeyResponse>;
export type CreatedApiKeyResponse = z.output<typeof createdApiKeyResponse>;
export type NewApiKeyResponse = z.output<typeof newApiKeyResponse>;
export type RevokedApiKeyResponse = z.output<typeof revokedApiKeyResponse>;
