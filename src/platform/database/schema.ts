import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  EmbeddingStatus,
  GenerationCost,
  IndexingMetadata,
  IndexingStatus,
  LoaderConfigItem,
  ModelConfig,
  PromptMessage,
  ResolvedTemplates,
  SkillMetadataEntry,
  SnippetPins,
  SpanEvent,
  SplitterConfig,
  TemplateMessage,
  ToolDefinition,
  WorkflowBlockType,
  WorkflowRunBlockStatus,
  WorkflowRunStatus,
  WorkspaceSettings,
} from '../../core/json-columns.js';
import type { ProviderKind } from '../../core/provider-kind-names.js';
import type { AuditActorType, KeyRole, MemberRole } from '../../core/roles.js';
import type { SpanKindName, SpanStatusName, WebhookDeliveryStatus } from '../../core/wire-values.js';

// Every tenant-owned table carries workspace_id; repositories filter on it in every query.

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
/** Soft delete: set when a resource is deleted; public reads leave such rows out. */
const deletedAt = () => timestamp('deleted_at', { withTimezone: true, mode: 'date' });

export const workspaces = pgTable('workspaces', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  settings: jsonb('settings').$type<WorkspaceSettings>().notNull().default({}),
  createdAt: createdAt(),
});

/**
 * A person. Signs in with a password (stored as an scrypt hash) or through the OpenID provider;
 * belongs to workspaces through memberships. Deactivated people cannot sign in, and their keys stop.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased: one person, one address. */
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash'),
    verified: boolean('verified').notNull().default(false),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

/** A person's role in one workspace. */
export const memberships = pgTable(
  'memberships',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.userId] }),
    index('memberships_user_index').on(table.userId),
  ],
);

/** The key and owner every tenant-owned table starts with. */
const tenantKey = () => ({
  id: uuid('id').primaryKey(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    ...tenantKey(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    name: text('name').notNull().default(''),
    /** Keys made before people existed, and those of the bootstrap, the admin API and the CLI: admin. */
    role: text('role').$type<KeyRole>().notNull().default('admin'),
    /** The person who made it; the key stops when they leave the workspace. Null: no creator. */
    createdBy: uuid('created_by').references(() => users.id),
    /** Written at most once a minute per key and node, not on every request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('api_keys_key_hash_unique').on(table.keyHash)],
);

/** An invitation to a workspace: single use, expiring; only its token's hash is stored. */
export const invitations = pgTable(
  'invitations',
  {
    ...tenantKey(),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('invitations_token_hash_unique').on(table.tokenHash),
    index('invitations_workspace_index').on(table.workspaceId, table.createdAt),
  ],
);

/**
 * A single-use link that is not an invitation: the first owner's setup link, an admin-issued
 * password reset. Only the token's hash is stored.
 */
export const singleUseTokens = pgTable(
  'single_use_tokens',
  {
    id: uuid('id').primaryKey(),
    purpose: text('purpose').$type<'setup' | 'password_reset'>().notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /**
     * A reset link's issuer and the workspace they issued it in: the link is revoked when they lose
     * the right to issue it there. Null for the operator's, a self-service one and a setup link.
     */
    issuedBy: uuid('issued_by').references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('single_use_tokens_token_hash_unique').on(table.tokenHash),
    index('single_use_tokens_issuer_index').on(table.issuedBy),
  ],
);

/** The audit chain's head: one row holding the newest record's hash; each append locks and moves it. */
export const auditChain = pgTable('audit_chain', {
  id: integer('id').primaryKey(),
  hash: text('hash').notNull(),
  /**
   * HMAC of the head under the chain's key (from LECTERN_SECRET): a head reset to an earlier record
   * after the newest were deleted does not carry a valid one. Null before the chain was keyed.
   */
  mac: text('mac'),
  /**
   * SHA-256 of the chain key's inner pad: only a transaction that names the key itself (retention's
   * prune) may delete records; a setting anyone can make no longer does.
   */
  keyCheck: text('key_check'),
});

/**
 * One configuration change, sign-in or sign-out (docs/api.md#audit-log). Append-only: a trigger
 * refuses UPDATE and DELETE (retention's pruning aside), and each record's hash covers the one
 * before it, so an edit made around the trigger shows in `lectern audit verify`.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    /** The chain's order: records are appended under one lock, so positions follow the chain. */
    position: bigint('position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    id: uuid('id').notNull(),
    /** Null for what belongs to no workspace (a sign-in failure for an unknown address). */
    workspaceId: uuid('workspace_id'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorId: uuid('actor_id'),
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    status: integer('status').notNull(),
    requestId: text('request_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
    /**
     * Whether `hash` is an HMAC under the chain's key (every record since the key came in): an edit
     * whose later hashes were recomputed cannot be made without the key. Records from before are
     * plain SHA-256, and none may follow a keyed one.
     */
    keyed: boolean('keyed').notNull().default(false),
  },
  (table) => [
    uniqueIndex('audit_log_id_unique').on(table.id),
    index('audit_log_workspace_index').on(table.workspaceId, table.position),
  ],
);

/**
 * A console sign-in: a browser exchanged a workspace API key for it and holds its token in an
 * HttpOnly cookie. Only the token's hash is stored; revoking the key ends the session too.
 */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    ...tenantKey(),
    /** The key a session was exchanged for, or the person who signed in: one of the two. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('console_sessions_token_hash_unique').on(table.tokenHash)],
);

export const apps = pgTable(
  'apps',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** A label the official SDK's `appType` sets; Lectern keeps it and shows it back. */
    appType: text('app_type'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('apps_workspace_index').on(table.workspaceId, table.createdAt)],
);

export const actions = pgTable(
  'actions',
  {
    ...tenantKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    actionType: text('action_type').notNull().default('prompt'),
    defaultEnvironment: text('default_environment').notNull().default('production'),
    latestVersion: integer('latest_version').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    /** `""` (the root) or `/`-separated segments; moving an Action makes no new version. */
    folder: text('folder').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Soft delete: the Action's generations and feedback stay stored. */
    deletedAt: deletedAt(),
  },
  (table) => [
    uniqueIndex('actions_workspace_slug_unique').on(table.workspaceId, table.slug),
    index('actions_workspace_index').on(table.workspaceId, table.createdAt),
    index('actions_workspace_folder_index').on(table.workspaceId, table.folder),
  ],
);

/**
 * A slug an Action gave up by a rename. Applications call Actions by slug, so for 30 days only an
 * admin may give it to another Action (docs/security.md#release-gates-and-slugs): a developer cannot
 * free a gated Action's slug and put an ungated impostor behind it.
 */
export const releasedActionSlugs = pgTable(
  'released_action_slugs',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('released_action_slugs_slug_index').on(table.workspaceId, table.slug, table.releasedAt)],
);

export const actionVersions = pgTable(
  'action_versions',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    model: text('model').notNull(),
    modelConfig: jsonb('model_config').$type<ModelConfig>().notNull().default({}),
    prompt: text('prompt'),
    messages: jsonb('messages').$type<TemplateMessage[]>(),
    systemMessage: text('system_message'),
    contexts: jsonb('contexts').$type<string[]>().notNull().default([]),
    skills: jsonb('skills').$type<string[]>().notNull().default([]),
    tools: jsonb('tools').$type<ToolDefinition[]>().notNull().default([]),
    /**
     * The snippet versions its templates include, pinned when it was saved: a new snippet version
     * changes no saved version, so nothing deployed changes behind a release gate.
     */
    snippets: jsonb('snippets').$type<SnippetPins>().notNull().default({}),
    /** Its templates with every include replaced by the pinned snippet's text; null when none includes one. */
    resolved: jsonb('resolved').$type<ResolvedTemplates>(),
    /** Who saved it: a person's GUID, or a creator-less key's. */
    savedById: text('saved_by_id'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.version] })],
);

/** A reusable template fragment, included by name: `{% include 'tone' %}` or pinned `{% include 'tone@3' %}`. */
export const snippets = pgTable(
  'snippets',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    folder: text('folder').notNull().default(''),
    description: text('description').notNull().default(''),
    latestVersion: integer('latest_version').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Soft delete: the versions stay, so every Action version that pinned one still renders. */
    deletedAt: deletedAt(),
  },
  (table) => [
    uniqueIndex('snippets_workspace_name_unique')
      .on(table.workspaceId, table.name)
      .where(sql`${table.deletedAt} is null`),
    index('snippets_workspace_folder_index').on(table.workspaceId, table.folder),
  ],
);

export const snippetVersions = pgTable(
  'snippet_versions',
  {
    snippetId: uuid('snippet_id')
      .notNull()
      .references(() => snippets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    /** Who saved it: a person's GUID, or a creator-less key's. */
    savedById: text('saved_by_id'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.snippetId, table.version] })],
);

/** Where a workspace's events are sent (docs/webhooks.md): signed with its secret, encrypted at rest. */
export const webhooks = pgTable(
  'webhooks',
  {
    ...tenantKey(),
    url: text('url').notNull(),
    /** Event types, or `*` for every one. */
    events: text('events').array().notNull(),
    description: text('description').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    /** The signing secret (`whsec_…`), encrypted with the instance secret. */
    secretEncrypted: text('secret_encrypted').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('webhooks_workspace_index').on(table.workspaceId)],
);

/**
 * The outbox: one row per event and webhook, written in the transaction of the change, sent after
 * it commits. Only each webhook's oldest pending delivery is sent (its `sequence` orders them), so a
 * webhook hears its events in the order of the changes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...tenantKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    sequence: bigint('sequence', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    event: text('event').notNull(),
    /** The body sent, exactly: the signature covers these bytes. */
    body: text('body').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** While a node sends it: no other node takes it before this passes (renewed as the send goes on). */
    leasedUntil: timestamp('leased_until', { withTimezone: true, mode: 'date' }),
    /** Which running service holds the lease: a node that sees its own need not look again later. */
    leasedBy: text('leased_by'),
    /** When its 24 hours of retries began (its creation, or its last redelivery). */
    retriesFrom: timestamp('retries_from', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_deliveries_webhook_index').on(table.webhookId, table.sequence),
    index('webhook_deliveries_pending_index').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
  ],
);

export const actionDeployments = pgTable(
  'action_deployments',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    version: integer('version').notNull(),
    /** Who deployed it: a person's GUID, or a creator-less key's. */
    deployedById: text('deployed_by_id'),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.environment] })],
);

export const providers = pgTable(
  'providers',
  {
    ...tenantKey(),
    kind: text('kind').$type<ProviderKind>().notNull(),
    nickname: text('nickname'),
    url: text('url'),
    /** AES-256-GCM ciphertext of the provider key (see platform/secrets.ts); never returned. */
    encryptedKey: text('encrypted_key'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('providers_workspace_nickname_unique')
      .on(table.workspaceId, table.nickname)
      .where(sql`${table.nickname} is not null`),
    index('providers_workspace_index').on(table.workspaceId, table.kind),
  ],
);

export const models = pgTable(
  'models',
  {
    ...tenantKey(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    name: text('name').notNull(),
    /** The workspace's default model (at most one; `GET /v1/models/default`). */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [index('models_workspace_index').on(table.workspaceId, table.createdAt)],
);

/**
 * A run request made with an `Idempotency-Key`: retried with the same key and body, it answers what
 * the first one answered instead of running again. Kept a day.
 */
export const idempotentRequests = pgTable(
  'idempotent_requests',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** sha256 of the route and body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request runs. */
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.key] }),
    index('idempotent_requests_created_index').on(table.createdAt),
  ],
);

/** The embedded job queue (platform/jobs/database-job-queue.ts); BullMQ replaces it when REDIS_URL is set. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    /** The capacity it runs on (platform/jobs/job-queue.ts). */
    lane: text('lane').$type<'interactive' | 'bulk' | 'evaluation'>().notNull().default('interactive'),
    /** Whose fair share of the lane it uses: its workspace's GUID ('' for a payload without one). */
    fairShareKey: text('fair_share_key').notNull().default(''),
    /** Its turn in the lane's fair order (start-time fair queuing; database-job-queue.ts). */
    fairPosition: bigint('fair_position', { mode: 'number' }).notNull().default(0),
    payload: jsonb('payload').notNull(),
    status: text('status').$type<'queued' | 'running' | 'succeeded' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    /** A caller's idempotency key: enqueueing the same key again adds nothing (a workflow's next block). */
    key: text('key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('jobs_ready_index').on(table.status, table.runAt),
    // The fair claim walks the queued jobs' keys of a lane one by one, then takes each key's next turn.
    index('jobs_fair_claim_index')
      .on(table.lane, table.fairShareKey, table.fairPosition)
      .where(sql`status = 'queued'`),
    // The lane's virtual clock: the lowest turn still queued.
    index('jobs_fair_clock_index').on(table.lane, table.fairPosition).where(sql`status = 'queued'`),
    uniqueIndex('jobs_key_unique').on(table.key),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    ...tenantKey(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    name: text('name'),
    extUserId: text('ext_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('sessions_workspace_index').on(table.workspaceId, table.extUserId, table.createdAt)],
);

export const experiments = pgTable(
  'experiments',
  {
    ...tenantKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id),
    name: text('name').notNull(),
    primaryActionId: uuid('primary_action_id')
      .notNull()
      .references(() => actions.id),
    secondaryActionId: uuid('secondary_action_id')
      .notNull()
      .references(() => actions.id),
    /** Share of traffic sent to the secondary Action, 0–1. */
    split: real('split').notNull().default(0.5),
    status: text('status').$type<'running' | 'paused' | 'completed'>().notNull().default('running'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('experiments_workspace_index').on(table.workspaceId, table.createdAt)],
);

/**
 * A run whose model call failed: not a generation (those are complete generations), but counted so
 * the dashboard can show errors per day next to runs.
 */
export const runFailures = pgTable(
  'run_failures',
  {
    ...tenantKey(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version'),
    environment: text('environment'),
    source: text('source').notNull(),
    modelProvider: text('model_provider'),
    model: text('model'),
    /** The error as the caller saw it, bounded. */
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('run_failures_workspace_created_index').on(table.workspaceId, table.createdAt)],
);

/**
 * The dashboard's figures of one finished UTC day and Action, computed from the generations when first
 * asked for (docs/api.md#generations-v1data): a month of a million runs is then a few hundred rows. The
 * latencies are kept as their distinct values with counts, so percentiles over many days stay exact.
 */
export const generationDays = pgTable(
  'generation_days',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    /** Null: the day's generations without an Action (model calls traced over OpenTelemetry). */
    actionId: uuid('action_id').references(() => actions.id, { onDelete: 'cascade' }),
    runs: integer('runs').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    cost: doublePrecision('cost').notNull(),
    withFeedback: integer('with_feedback').notNull(),
    /** Runs whose latest rating is good and bad (Klu's "2" and "1", or the words: statistics-repository.ts). */
    goodFeedback: integer('good_feedback').notNull().default(0),
    badFeedback: integer('bad_feedback').notNull().default(0),
    errors: integer('errors').notNull(),
    latencyValues: integer('latency_values').array().notNull(),
    latencyCounts: integer('latency_counts').array().notNull(),
  },
  // One row per day and Action, and one for the day's generations without an Action: the null is a
  // key like any other Action's.
  (table) => [
    unique('generation_days_key').on(table.workspaceId, table.day, table.actionId).nullsNotDistinct(),
  ],
);

/**
 * Which days of a workspace are in `generation_days`, and when they were computed. A change to a
 * finished day (feedback, an edited or deleted record) stamps `changed_at`; a rollup computed before
 * that stamp is computed again on the next read.
 */
export const generationDaysComputed = pgTable(
  'generation_days_computed',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.day] })],
);

/** One stored generation (the API's `data`); only complete generations are stored. */
export const generations = pgTable(
  'generations',
  {
    ...tenantKey(),
    /** Null for a model call traced over OpenTelemetry that names no Action (`lectern.action`). */
    actionId: uuid('action_id').references(() => actions.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').references(() => sessions.id),
    experimentId: uuid('experiment_id').references(() => experiments.id),
    /** The trace and span it was made in: a run's own trace, or the span an application sent. */
    traceId: text('trace_id'),
    spanId: text('span_id'),
    input: jsonb('input').$type<unknown>(),
    output: text('output').notNull(),
    fullPromptSent: jsonb('full_prompt_sent').$type<PromptMessage[]>().notNull().default([]),
    /** The user turn this run added, replayed before later turns of the same session. */
    turnMessages: jsonb('turn_messages').$type<PromptMessage[]>().notNull().default([]),
    model: text('model'),
    modelProvider: text('model_provider'),
    numInputTokens: integer('num_input_tokens'),
    numOutputTokens: integer('num_output_tokens'),
    latencyMs: integer('latency_ms'),
    cost: jsonb('cost').$type<GenerationCost>(),
    environment: text('environment'),
    version: integer('version'),
    extUserId: text('ext_user_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** How it was made: sync, stream, async, experiment, workflow, api (POST /v1/data), gateway. */
    source: text('source').notNull(),
    cached: boolean('cached').notNull().default(false),
    /** hash(version, rendered messages, model, options) for `cache: true` runs (docs/architecture.md#layers). */
    cacheKey: text('cache_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('generations_action_index').on(table.workspaceId, table.actionId, table.createdAt),
    // The console's log view: every generation of a workspace, newest first, one page at a time.
    index('generations_workspace_created_index').on(table.workspaceId, table.createdAt),
    // Partial: most generations have no session, cache key or experiment, and every run inserts one.
    index('generations_session_index')
      .on(table.sessionId, table.createdAt)
      .where(sql`${table.sessionId} is not null`),
    index('generations_cache_index')
      .on(table.workspaceId, table.cacheKey)
      .where(sql`${table.cacheKey} is not null`),
    index('generations_experiment_index')
      .on(table.experimentId)
      .where(sql`${table.experimentId} is not null`),
    // A span is one generation: an exporter's retry of a batch stores nothing twice.
    uniqueIndex('generations_span_index')
      .on(table.workspaceId, table.traceId, table.spanId)
      .where(sql`${table.spanId} is not null`),
  ],
);

export const feedback = pgTable(
  'feedback',
  {
    ...tenantKey(),
    generationId: uuid('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    value: text('value').notNull(),
    source: text('source').notNull(),
    createdById: text('created_by_id').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('feedback_generation_index').on(table.generationId, table.createdAt)],
);

/** An asynchronous run: what `result_url` polls. The generation is stored under `generation_id`. */
export const asyncRuns = pgTable('async_runs', {
  ...tenantKey(),
  actionId: uuid('action_id')
    .notNull()
    .references(() => actions.id, { onDelete: 'cascade' }),
  /** Chosen up front, so a retried job never stores a second record. */
  generationId: uuid('generation_id').notNull(),
  status: text('status').$type<WebhookDeliveryStatus>().notNull(),
  output: text('output'),
  errorStatus: integer('error_status'),
  errorCode: text('error_code'),
  error: text('error'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A document library indexed for retrieval (docs/api.md Context). */
export const contexts = pgTable(
  'contexts',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    responseLength: integer('response_length'),
    splitterConfig: jsonb('splitter_config').$type<SplitterConfig>().notNull(),
    /** `"<provider>/<model>"` of a configured embedding model; null = the offline default embedder. */
    embeddingModel: text('embedding_model'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdById: text('created_by_id').notNull(),
    /** BM25 counts, kept in step with every Document write (N and the total of document lengths). */
    documentCount: integer('document_count').notNull().default(0),
    termTotal: bigint('term_total', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('contexts_workspace_index').on(table.workspaceId, table.createdAt)],
);

/** A repeatable file loader that fills a Context (docs/api.md Context Source). */
export const contextSources = pgTable(
  'context_sources',
  {
    ...tenantKey(),
    contextId: uuid('context_id')
      .notNull()
      .references(() => contexts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    loaderId: text('loader_id').notNull().default('file'),
    loaderConfig: jsonb('loader_config').$type<LoaderConfigItem[]>().notNull().default([]),
    splitterConfig: jsonb('splitter_config').$type<SplitterConfig>().notNull(),
    indexingStatus: text('indexing_status').$type<IndexingStatus>().notNull().default('PENDING'),
    /**
     * Counts the processings begun: when two overlap (add_files, then /process at once), only the
     * newest keeps its Documents, so the source holds exactly one complete set.
     */
    generation: integer('generation').notNull().default(0),
    indexedAt: timestamp('indexed_at', { withTimezone: true, mode: 'date' }),
    indexingMetadata: jsonb('indexing_metadata').$type<IndexingMetadata>(),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('context_sources_context_index').on(table.contextId, table.createdAt)],
);

/** One retrievable chunk (docs/api.md Document). The embedding is filled by the embedding job. */
export const documents = pgTable(
  'documents',
  {
    ...tenantKey(),
    contextId: uuid('context_id')
      .notNull()
      .references(() => contexts.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id').references(() => contextSources.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    filter: text('filter'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** Number of indexed terms (BM25 document length). */
    termCount: integer('term_count').notNull(),
    /**
     * Unit-length vector. Stored as real[] so one schema serves PostgreSQL with and without pgvector;
     * with pgvector an HNSW index over `embedding::vector(n)` per dimension serves the search.
     */
    embedding: real('embedding').array(),
    embeddingDimensions: integer('embedding_dimensions'),
    embeddingStatus: text('embedding_status').$type<EmbeddingStatus>().notNull().default('pending'),
    /**
     * The large write that staged this chunk (`document_writes`), in transactions of one slice each
     * so the embedded database is never held for a whole write. No read sees the chunk while that
     * write's row exists; deleting the row publishes every chunk at once, in one short statement.
     * Null for a write of one slice, and cleared when the chunk's embedding is stored.
     */
    writeId: uuid('write_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('documents_context_index').on(table.contextId, table.createdAt, table.id),
    index('documents_write_index').on(table.writeId).where(sql`${table.writeId} is not null`),
    index('documents_pending_index').on(table.contextId).where(sql`${table.embeddingStatus} = 'pending'`),
    index('documents_source_index').on(table.sourceId).where(sql`${table.sourceId} is not null`),
  ],
);

/**
 * A large Document write still staging its chunks: while its row exists its chunks are invisible
 * (documents.write_id). A row older than any write takes belongs to a process that died mid-write.
 */
export const documentWrites = pgTable('document_writes', {
  ...tenantKey(),
  contextId: uuid('context_id')
    .notNull()
    .references(() => contexts.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/**
 * BM25 postings: one row per (Document, stemmed term), written with the Document. `impact` is the
 * term's BM25 weight in the Document when it was written; a search reads each query term's
 * highest-impact postings first. Two covering indexes are written by hand in
 * drizzle/0002_contexts.sql (drizzle cannot declare INCLUDE): `document_terms_impact` on
 * (context_id, term, impact DESC) and `document_terms_document` on (document_id, term), each
 * including what scoring reads, so a search never visits the table.
 */
export const documentTerms = pgTable('document_terms', {
  contextId: uuid('context_id').notNull(),
  term: text('term').notNull(),
  documentId: uuid('document_id')
    .notNull()
    .references(() => documents.id, { onDelete: 'cascade' }),
  frequency: integer('frequency').notNull(),
  documentLength: integer('document_length').notNull(),
  impact: real('impact').notNull(),
});

/** Document frequency of each term in a Context (BM25's idf), kept with every postings write. */
export const contextTerms = pgTable(
  'context_terms',
  {
    contextId: uuid('context_id')
      .notNull()
      .references(() => contexts.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    documentFrequency: integer('document_frequency').notNull(),
  },
  (table) => [primaryKey({ columns: [table.contextId, table.term] })],
);

/** An uploaded file (docs/api.md#how-the-parts-behave); the bytes live in the blob store under `files/<workspace>/<id>`. */
export const files = pgTable('files', {
  ...tenantKey(),
  mimeType: text('mime_type').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
});

/** A reusable capability a model may call as a tool, or that runs on its own (docs/api.md#how-the-parts-behave). */
export const skills = pgTable(
  'skills',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    /** The skill type's name (`http_request`, `context_search`, `action`, `calculator`). */
    type: text('type').notNull(),
    metadata: jsonb('metadata').$type<SkillMetadataEntry[]>().notNull(),
    /** Values that may hold credentials (http_request headers), encrypted with the instance secret. */
    sealedMetadata: text('sealed_metadata'),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('skills_workspace_index').on(table.workspaceId, table.createdAt)],
);

/** A Workflow: ordered blocks of an App, triggered as runs (docs/api.md#how-the-parts-behave). */
export const workflows = pgTable(
  'workflows',
  {
    ...tenantKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('workflows_app_index').on(table.workspaceId, table.appId, table.createdAt)],
);

/** The stored blocks of a Workflow, in order; `PUT .../blocks` replaces them all. */
export const workflowBlocks = pgTable(
  'workflow_blocks',
  {
    id: uuid('id').primaryKey(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<WorkflowBlockType>().notNull(),
    actionId: uuid('action_id').references(() => actions.id, { onDelete: 'cascade' }),
    /** Template variable → text with `{{input.KEY}}` and `{{blocks.NAME}}`; null = the previous output. */
    input: jsonb('input').$type<Record<string, string>>(),
  },
  (table) => [
    uniqueIndex('workflow_blocks_position_unique').on(table.workflowId, table.position),
    uniqueIndex('workflow_blocks_name_unique').on(table.workflowId, table.name),
  ],
);

/** One trigger (or playground run) of a Workflow; its blocks are copied so later edits change nothing. */
export const workflowRuns = pgTable(
  'workflow_runs',
  {
    ...tenantKey(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<WorkflowRunStatus>().notNull(),
    result: text('result'),
    error: text('error'),
    playground: boolean('playground').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('workflow_runs_workflow_index').on(table.workflowId, table.createdAt)],
);

/** A block as one run executes it: the copied definition, its generation and its outcome. */
export const workflowRunBlocks = pgTable(
  'workflow_run_blocks',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => workflowRuns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    blockId: uuid('block_id').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<WorkflowBlockType>().notNull(),
    actionId: uuid('action_id'),
    actionName: text('action_name'),
    input: jsonb('input').$type<Record<string, string>>(),
    /** Chosen at trigger time (the response names it), so a retried block never stores a second record. */
    generationId: uuid('generation_id'),
    status: text('status').$type<WorkflowRunBlockStatus>().notNull(),
    output: text('output'),
    errorStatus: integer('error_status'),
    errorCode: text('error_code'),
    error: text('error'),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.position] }),
    uniqueIndex('workflow_run_blocks_block_unique').on(table.runId, table.blockId),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // pg answers a Buffer, PGlite a Uint8Array: both become a Buffer over the same memory.
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/** File bytes when the service runs on PostgreSQL without a bucket: every node reads the same blobs. */
export const blobs = pgTable('blobs', {
  key: text('key').primaryKey(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

/**
 * A set of inputs (and the outputs expected for them) that evaluations run an Action over
 * (docs/evaluations.md#datasets). Its items are versioned: each change adds a version, and every
 * earlier version stays readable, so an evaluation keeps the exact items it ran on.
 */
export const datasets = pgTable(
  'datasets',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The newest version: 1 when made, one more for each change of its items. */
    version: integer('version').notNull().default(1),
    /** How many items the newest version holds. */
    itemCount: integer('item_count').notNull().default(0),
    /** How many items were ever added: the next item's place in the order (an edit keeps its place). */
    itemsAdded: integer('items_added').notNull().default(0),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Deleted datasets are gone from the API, but evaluations that ran on them keep their items. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('datasets_workspace_index').on(table.workspaceId, table.createdAt)],
);

/**
 * One item as it stands over a range of its dataset's versions: from `added_in` until the version
 * that removed or replaced it (`removed_in`, null while it is current). An edit ends the row and
 * starts a new one with the same `item_id`, so version N is every row with
 * `added_in <= N < coalesce(removed_in, ∞)`.
 */
export const datasetItems = pgTable(
  'dataset_items',
  {
    id: uuid('id').primaryKey(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    /** The item's GUID, the same in every version it is in. */
    itemId: uuid('item_id').notNull(),
    position: integer('position').notNull(),
    input: jsonb('input').$type<unknown>().notNull(),
    expectedOutput: text('expected_output'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    addedIn: integer('added_in').notNull(),
    removedIn: integer('removed_in'),
  },
  (table) => [
    index('dataset_items_order_index').on(table.datasetId, table.position),
    index('dataset_items_item_index').on(table.datasetId, table.itemId),
  ],
);

/**
 * How an output is scored (docs/evaluations.md#evaluators): a type and its settings. Deleted
 * evaluators leave the API; the scores they gave stay with the evaluations that hold them.
 */
export const evaluators = pgTable(
  'evaluators',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    /** exact_match, contains, regex, json_valid, similarity, latency or cost. */
    type: text('type').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('evaluators_workspace_index').on(table.workspaceId, table.createdAt)],
);

/** An evaluator as an evaluation pinned it when it started: later edits do not change its scores. */
export type PinnedEvaluator = { id: string; name: string; type: string; config: Record<string, unknown> };

/**
 * One evaluation run (docs/evaluations.md#evaluation-runs): an Action version over one dataset
 * version, scored by pinned evaluators. Its items are `evaluation_results` rows, made when it starts;
 * jobs fill them in. `report` holds the summary once the run has ended, so reading it costs nothing.
 */
export const evaluations = pgTable(
  'evaluations',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** A model run instead of the version's (`provider/model`), for a matrix over models. */
    model: text('model'),
    /** The environment the version was taken from, when the request named one (or none at all). */
    environment: text('environment'),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    datasetVersion: integer('dataset_version').notNull(),
    evaluators: jsonb('evaluators').$type<PinnedEvaluator[]>().notNull(),
    concurrency: integer('concurrency').notNull(),
    /** PENDING, RUNNING, SUCCESS, FAILED or CANCELLED. */
    status: text('status').notNull(),
    /** Why a FAILED run could not proceed. */
    error: text('error'),
    total: integer('total').notNull(),
    report: jsonb('report').$type<Record<string, unknown>>(),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('evaluations_workspace_index').on(table.workspaceId, table.createdAt),
    // Release gates look up the evaluations of one version of one Action.
    index('evaluations_action_index').on(table.actionId, table.version, table.createdAt),
  ],
);

/**
 * One item of an evaluation: the dataset item row it ran (that version's input and expected output),
 * the generation GUID chosen before it ran (so a retry finds a generation stored by an earlier
 * attempt instead of running again), and, once finished, its output and scores.
 */
export const evaluationResults = pgTable(
  'evaluation_results',
  {
    evaluationId: uuid('evaluation_id')
      .notNull()
      .references(() => evaluations.id, { onDelete: 'cascade' }),
    /** 0, 1, 2, … in the dataset's order. */
    position: integer('position').notNull(),
    itemRowId: uuid('item_row_id')
      .notNull()
      .references(() => datasetItems.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id').notNull(),
    generationId: uuid('generation_id').notNull(),
    /** pending, done or failed (the item's run failed: no scores). */
    status: text('status').notNull().default('pending'),
    output: text('output'),
    error: text('error'),
    /** By evaluator GUID: a number in [0, 1], or null (its reason in `score_errors`). */
    scores: jsonb('scores').$type<Record<string, number | null>>().notNull().default({}),
    scoreErrors: jsonb('score_errors').$type<Record<string, string>>().notNull().default({}),
    latencyMs: integer('latency_ms'),
    costUsd: doublePrecision('cost_usd'),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    primaryKey({ columns: [table.evaluationId, table.position] }),
    index('evaluation_results_item_index').on(table.evaluationId, table.itemId),
  ],
);

/**
 * What a deploy of an Action to an environment needs (docs/evaluations.md#release-gates): a
 * successful evaluation of the version on the dataset's current version whose means reach
 * `min_mean`, at most `max_regressions` items worse than the deployed version's, and approvals.
 */
export const releaseGates = pgTable(
  'release_gates',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    /** The dataset version a gate's evaluation must have run on: a new item changes no gate. */
    datasetVersion: integer('dataset_version').notNull(),
    evaluatorIds: jsonb('evaluator_ids').$type<string[]>().notNull(),
    /** Each evaluator as it was when the gate was set: an evaluation scored otherwise is no evidence. */
    evaluatorPins: jsonb('evaluator_pins').$type<PinnedEvaluator[]>().notNull(),
    minMean: jsonb('min_mean').$type<Record<string, number>>().notNull().default({}),
    maxRegressions: integer('max_regressions'),
    approvals: integer('approvals'),
    updatedById: text('updated_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.environment] })],
);

/** A member's approval of one saved version, counted by gates with `approvals`. */
export const versionApprovals = pgTable(
  'version_approvals',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    userId: text('user_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.version, table.userId] })],
);

/**
 * Online evaluation (docs/evaluations.md#monitors): a sampled share of an Action's production
 * generations is scored in the background. `scanned_until`/`scanned_id` mark the last generation a
 * sweep read, so each is read once, in the order they were made.
 */
export const monitors = pgTable(
  'monitors',
  {
    ...tenantKey(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    evaluatorIds: jsonb('evaluator_ids').$type<string[]>().notNull(),
    sampleRate: doublePrecision('sample_rate').notNull(),
    environment: text('environment'),
    scannedUntil: timestamp('scanned_until', { withTimezone: true, mode: 'date' }).notNull(),
    scannedId: uuid('scanned_id'),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('monitors_workspace_index').on(table.workspaceId, table.createdAt)],
);

/** A monitor's score of one generation by one evaluator: null with the reason when it could not be computed. */
export const generationScores = pgTable(
  'generation_scores',
  {
    generationId: uuid('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    evaluatorId: uuid('evaluator_id').notNull(),
    workspaceId: uuid('workspace_id').notNull(),
    actionId: uuid('action_id').notNull(),
    monitorId: uuid('monitor_id').notNull(),
    score: doublePrecision('score'),
    error: text('error'),
    /** The generation's day (UTC): the Dashboard's daily means are by the day the generation was made. */
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.generationId, table.evaluatorId] }),
    index('generation_scores_day_index').on(table.workspaceId, table.day),
    index('generation_scores_evaluator_index').on(table.evaluatorId, table.score),
  ],
);

/**
 * A trace's totals, kept as its spans arrive (any order, several requests): the list reads these
 * rows, never the spans. `name`, `service_name` and `root_status` come with the root span.
 */
export const traces = pgTable(
  'traces',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    traceId: text('trace_id').notNull(),
    name: text('name'),
    serviceName: text('service_name'),
    rootStatus: text('root_status').$type<SpanStatusName>(),
    startUnixNano: bigint('start_unix_nano', { mode: 'bigint' }).notNull(),
    endUnixNano: bigint('end_unix_nano', { mode: 'bigint' }).notNull(),
    spanCount: integer('span_count').notNull(),
    /** Whether any span failed: the trace's status is then ERROR, whatever its root says. */
    failed: boolean('failed').notNull().default(false),
    session: text('session'),
    /** USD, the sum of its generations' costs. */
    cost: doublePrecision('cost').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.traceId] }),
    // The list: newest first; its filters narrow what this index walks.
    index('traces_workspace_start_index').on(table.workspaceId, table.startUnixNano),
    index('traces_session_index')
      .on(table.workspaceId, table.session, table.startUnixNano)
      .where(sql`${table.session} is not null`),
  ],
);

/**
 * Spans, partitioned by the day they start (docs/operations.md#traces): the migration declares
 * `PARTITION BY RANGE (start_unix_nano)`, and the traces feature makes each day's table as spans
 * need it and drops it once past the retention. The key holds the start because a partitioned
 * table's unique keys must hold its partition key; a span id is unique within its trace anyway.
 */
export const spans = pgTable(
  'spans',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    traceId: text('trace_id').notNull(),
    spanId: text('span_id').notNull(),
    parentSpanId: text('parent_span_id'),
    name: text('name').notNull(),
    kind: text('kind').$type<SpanKindName>().notNull(),
    startUnixNano: bigint('start_unix_nano', { mode: 'bigint' }).notNull(),
    endUnixNano: bigint('end_unix_nano', { mode: 'bigint' }).notNull(),
    status: text('status').$type<SpanStatusName>().notNull(),
    statusMessage: text('status_message').notNull().default(''),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull(),
    events: jsonb('events').$type<SpanEvent[]>().notNull(),
    serviceName: text('service_name'),
    scopeName: text('scope_name'),
    /** The generation a model-call span is (no foreign key: a partitioned table's rows outlive it). */
    generationId: uuid('generation_id'),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.traceId, table.spanId, table.startUnixNano] })],
);
