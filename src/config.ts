import { availableParallelism } from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { type ProviderKind, providerKindEnvironment, providerKinds } from './core/provider-kind-names.js';
import type { MemberRole } from './core/roles.js';
import { memberRoles } from './core/roles.js';

// The one place that reads process.env. Everything else receives a Config.

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  LECTERN_DATA_DIR: z.string().default('./.lectern'),
  LECTERN_BASE_URL: optionalText.pipe(z.url().optional()),
  LECTERN_SECRET: optionalText.pipe(
    z.string().min(16, 'LECTERN_SECRET needs at least 16 characters').optional(),
  ),
  LECTERN_INIT_API_KEY: optionalText.pipe(
    z.string().min(16, 'LECTERN_INIT_API_KEY needs at least 16 characters').optional(),
  ),
  LECTERN_INIT_OWNER_EMAIL: optionalText.pipe(z.email().optional()),
  LECTERN_INIT_OWNER_PASSWORD: optionalText,
  LECTERN_CONSOLE_KEY_SIGNIN: z.enum(['true', 'false']).default('true'),
  LECTERN_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).default(0),
  SMTP_URL: optionalText.pipe(z.url().optional()),
  LECTERN_MAIL_FROM: optionalText,
  LECTERN_OIDC_ISSUER: optionalText.pipe(z.url().optional()),
  LECTERN_OIDC_CLIENT_ID: optionalText,
  LECTERN_OIDC_CLIENT_SECRET: optionalText,
  LECTERN_OIDC_SCOPES: z.string().default('openid email profile'),
  LECTERN_OIDC_ALLOWED_DOMAINS: optionalText,
  LECTERN_OIDC_DEFAULT_ROLE: optionalText.pipe(z.enum(memberRoles).optional()),
  LECTERN_OIDC_ROLE_CLAIM: optionalText,
  LECTERN_ADMIN_TOKEN: optionalText.pipe(
    z.string().min(16, 'LECTERN_ADMIN_TOKEN needs at least 16 characters').optional(),
  ),
  LECTERN_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  LECTERN_FILE_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024),
  LECTERN_FETCH_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  LECTERN_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(5_000),
  LECTERN_TRACE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  LECTERN_RUN_TRACES: z.enum(['true', 'false']).default('true'),
  LECTERN_OTEL_EXPORT_ENDPOINT: optionalText.pipe(z.url().optional()),
  LECTERN_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(60_000),
  LECTERN_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(10_000),
  LECTERN_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(72_000),
  // 32MB, not PGlite's 128MB: at 100k chunks search is as fast (docs/performance.md) and an idle
  // service holds ~115 MB less.
  LECTERN_PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'a size such as 32MB')
    .default('32MB'),
  LECTERN_PGLITE_OPTIMIZING_COMPILER: z.enum(['true', 'false']).default('false'),
  LECTERN_MODEL_CACHE_DIR: optionalText,
  LECTERN_EMBEDDING_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  LECTERN_SOURCE_TIME_LIMIT_MS: z.coerce.number().int().positive().default(120_000),
  LECTERN_SOURCE_TEXT_LIMIT: z.coerce.number().int().positive().default(20_000_000),
  LECTERN_OUTBOUND_ALLOW: optionalText,
  LECTERN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(60_000),
  LECTERN_API_KEYS_PER_WORKSPACE: z.coerce.number().int().min(1).max(1_000_000).default(100),
  LECTERN_WEBHOOKS_PER_WORKSPACE: z.coerce.number().int().min(1).max(10_000).default(20),
  LECTERN_EVENT_STREAMS_PER_WORKSPACE: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  LECTERN_INTERACTIVE_JOB_SLOTS: z.coerce.number().int().min(1).max(256).default(4),
  LECTERN_BULK_JOB_SLOTS: z.coerce.number().int().min(1).max(256).default(2),
  LECTERN_EVALUATION_JOB_SLOTS: z.coerce.number().int().min(1).max(256).default(8),
  LECTERN_CONSOLE_SESSION_MAX_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(30 * 24),
  LECTERN_CONSOLE_SESSIONS_PER_KEY: z.coerce.number().int().min(1).max(10_000).default(20),
  LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(10),
  LECTERN_TRUST_PROXY: optionalText,
  LECTERN_CONSOLE_SESSION_IDLE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(7 * 24),
  LECTERN_SHARE_ENV_PROVIDER_KEYS: z.enum(['auto', 'on', 'off']).default('auto'),
  LECTERN_MOCK_PROVIDER: z.enum(['on', 'off']).default('on'),
  LECTERN_CHECK_RESPONSES: z.enum(['on', 'off']).default('off'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalText.pipe(z.url().optional()),
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: optionalText.pipe(z.enum(['true', 'false']).optional()),
  // Provider keys (OPENAI_API_KEY, …) are read by environmentProviders: each kind's record names its variables.
});

/** The operator's provider keys from the environment, per kind (each kind's record names its variables). */
export type ProviderFallbacks = Partial<Record<ProviderKind, { key: string; url?: string }>>;

/** The operator's provider URLs from the environment (`OPENAI_BASE_URL`), with or without a key. */
export type ProviderUrls = Partial<Record<ProviderKind, string>>;

/**
 * `LECTERN_SHARE_ENV_PROVIDER_KEYS`: whether workspaces may run on the operator's environment keys.
 * `auto` shares them while the instance has a single workspace (one person or team on a laptop) and
 * stops once a second workspace exists, where they would be another tenant's to spend.
 */
export type EnvironmentKeySharing = 'auto' | 'on' | 'off';

/** An S3-compatible bucket for uploaded files (AWS S3, MinIO, R2, …). */
export type BucketConfig = {
  name: string;
  /** Unset for AWS itself; the service's URL otherwise. */
  endpoint?: string;
  region: string;
  /** Unset: the AWS SDK's own chain (instance role, AWS_* variables, profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `bucket` in the path rather than the host name, as MinIO and most self-hosted services need. */
  forcePathStyle: boolean;
};

/** Single sign-on with an OpenID provider (docs/operations.md#single-sign-on). */
export type OidcConfig = {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  /** Lower-case e-mail domains allowed to sign in; empty: any. */
  allowedDomains: string[];
  /** The role in workspace `default` of a first sign-in; unset: none until invited. */
  defaultRole?: MemberRole;
  /** A claim whose `lectern:<role>` values set the role at every sign-in. */
  roleClaim?: string;
};

/** People (docs/operations.md#people): the first owner, mail, how the console signs in. */
export type PeopleConfig = {
  initialOwner?: { email: string; password: string };
  smtpUrl?: string;
  mailFrom: string;
  /** Whether the console still accepts an API key to sign in. */
  consoleKeySignIn: boolean;
  oidc?: OidcConfig;
  /** Audit records older than this many days are pruned; 0 keeps them for ever. */
  auditRetentionDays: number;
};

export type Config = {
  port: number;
  host: string;
  dataDirectory: string;
  baseUrl: string;
  secret?: string;
  initialApiKey?: string;
  adminToken?: string;
  people: PeopleConfig;
  bodyLimitBytes: number;
  /** Largest uploaded or fetched file. */
  fileLimitBytes: number;
  fetchTimeoutMs: number;
  /** The first wait of a webhook's retry schedule; the later ones scale with it (features/edges/webhooks/retry-schedule.ts). */
  webhookRetryBaseMs: number;
  /** Days spans and traces are kept (docs/traces.md#retention). */
  traceRetentionDays: number;
  /** Whether runs are traced (docs/traces.md#lecterns-own-runs); on unless `LECTERN_RUN_TRACES=false`. */
  runTraces: boolean;
  /** A collector that Lectern's own spans are also exported to (OTLP/HTTP protobuf). */
  otelExportEndpoint: string | undefined;
  /**
   * Whether V8 may optimise the embedded database's WebAssembly (TurboFan). Off by default: it costs
   * ~60 MB of an idle service's memory (platform/webassembly-compiler.ts).
   */
  pgliteOptimizingCompiler: boolean;
  /** The embedded database's buffer cache (PostgreSQL `shared_buffers`). */
  pgliteSharedBuffers: string;
  /** Where offline models keep their compact form between starts (`<data dir>/models` by default). */
  modelCacheDirectory: string;
  /** Worker threads of the sentence encoder (one core is left to the requests by default). */
  embeddingThreads: number;
  /** Extracting and splitting one Context Source's file may take this long (a worker thread does it). */
  sourceTimeLimitMs: number;
  /** Characters of text one Context Source may have. */
  sourceTextLimit: number;
  /** Private addresses or CIDR ranges Context Sources may still fetch from (an intranet file server). */
  outboundAllow: string[];
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  databaseUrl?: string;
  redisUrl?: string;
  bucket?: BucketConfig;
  providerFallbacks: ProviderFallbacks;
  shareEnvironmentProviderKeys: EnvironmentKeySharing;
  /** Requests a minute per API key (a workspace's setting overrides it); 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Whether LECTERN_BASE_URL was given (else `baseUrl` is made from HOST and PORT). */
  baseUrlConfigured: boolean;
  /** Live (unrevoked) API keys a workspace may hold at once. */
  apiKeysPerWorkspace: number;
  /** Webhooks a workspace may have: each one turns every change into one more outbound POST. */
  webhooksPerWorkspace: number;
  /** Deployment event streams (`GET /v1/deployments/events`) one workspace may hold open on a node. */
  eventStreamsPerWorkspace: number;
  /**
   * How long a client may take to send a whole request (headers and body; `408` and closed after),
   * to send its headers, and to stay connected idle between requests.
   */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  /**
   * Jobs a worker node runs at once, per lane: interactive (async runs, workflow blocks) and bulk
   * (embedding, Context Source indexing), so bulk work never holds an interactive job up.
   */
  jobSlots: { interactive: number; bulk: number; evaluation: number };
  /** A console sign-in ends after this long without a request (`LECTERN_CONSOLE_SESSION_IDLE_HOURS`). */
  consoleSessionIdleMs: number;
  /** A console sign-in ends this long after it began, however busy it was. */
  consoleSessionMaxMs: number;
  /** Live console sessions one API key may have; a new sign-in ends the oldest beyond it. */
  consoleSessionsPerKey: number;
  /** Console sign-in attempts a minute per client address and per API key (429 beyond). */
  consoleSignInsPerMinute: number;
  /**
   * Fastify's `trustProxy`: which proxies' X-Forwarded-For names the client (false: none; true:
   * any; else the addresses or CIDR ranges of the proxies in front).
   */
  trustProxy: boolean | string[];
  /** `LECTERN_MOCK_PROVIDER=off` refuses the `mock` provider (a production instance needs no fake model). */
  mockProvider: boolean;
  /**
   * `LECTERN_CHECK_RESPONSES=on` checks every answer against its route's declared schema and fails
   * one that differs (500 `response_mismatch`): the test suite runs so, production does not.
   */
  checkResponses: boolean;
  /** Where a kind is reached when no provider record names a URL (`OPENAI_BASE_URL`). */
  providerUrls: ProviderUrls;
};

export class ConfigError extends Error {}

/** `LECTERN_OUTBOUND_ALLOW`: comma-separated addresses or CIDR ranges. */
function parseAllowList(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry)) {
      throw new ConfigError(
        `Invalid configuration: LECTERN_OUTBOUND_ALLOW: "${entry}" is not an address or CIDR range`,
      );
    }
  }
  return entries;
}

function bucketConfig(values: z.infer<typeof environmentSchema>): BucketConfig | undefined {
  const named = Object.entries(values).filter(
    ([name, value]) => name.startsWith('S3_') && value !== undefined,
  );
  if (!values.S3_BUCKET) {
    if (named.length > 0) {
      throw new ConfigError(
        `Invalid configuration: S3_BUCKET is required with ${named.map(([name]) => name).join(', ')}`,
      );
    }
    return undefined;
  }
  if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  return {
    name: values.S3_BUCKET,
    endpoint: values.S3_ENDPOINT,
    region: values.S3_REGION ?? 'us-east-1',
    ...(values.S3_ACCESS_KEY_ID &&
      values.S3_SECRET_ACCESS_KEY && {
        credentials: { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY },
      }),
    forcePathStyle: values.S3_FORCE_PATH_STYLE
      ? values.S3_FORCE_PATH_STYLE === 'true'
      : Boolean(values.S3_ENDPOINT),
  };
}

function trustProxyOf(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The operator's provider keys and URLs, as each kind's record names its environment variables. */
function environmentProviders(environment: NodeJS.ProcessEnv) {
  const fallbacks: ProviderFallbacks = {};
  const urls: ProviderUrls = {};
  for (const kind of providerKinds) {
    const variables = providerKindEnvironment[kind];
    if (!variables) continue;
    const key = optionalText.parse(environment[variables.key]);
    const url = variables.url ? optionalText.parse(environment[variables.url]) : undefined;
    if (url) urls[kind] = url;
    if (key) fallbacks[kind] = url ? { key, url } : { key };
  }
  return { fallbacks, urls };
}

function peopleConfig(values: z.output<typeof environmentSchema>): PeopleConfig {
  const owner = values.LECTERN_INIT_OWNER_EMAIL;
  const ownerPassword = values.LECTERN_INIT_OWNER_PASSWORD;
  if (Boolean(owner) !== Boolean(ownerPassword))
    throw new ConfigError('LECTERN_INIT_OWNER_EMAIL and LECTERN_INIT_OWNER_PASSWORD are set together');
  const issuer = values.LECTERN_OIDC_ISSUER;
  if (issuer && !values.LECTERN_OIDC_CLIENT_ID)
    throw new ConfigError('LECTERN_OIDC_ISSUER needs LECTERN_OIDC_CLIENT_ID');
  if (issuer && new URL(issuer).protocol === 'http:' && !isLoopbackHost(new URL(issuer).hostname))
    throw new ConfigError('LECTERN_OIDC_ISSUER must be https:// (http:// only on a loopback address)');
  return {
    initialOwner:
      owner && ownerPassword ? { email: owner.toLowerCase(), password: ownerPassword } : undefined,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.LECTERN_MAIL_FROM ?? 'Lectern <lectern@localhost>',
    consoleKeySignIn: values.LECTERN_CONSOLE_KEY_SIGNIN === 'true',
    auditRetentionDays: values.LECTERN_AUDIT_RETENTION_DAYS,
    oidc: issuer
      ? {
          issuer,
          clientId: values.LECTERN_OIDC_CLIENT_ID!,
          clientSecret: values.LECTERN_OIDC_CLIENT_SECRET,
          scopes: values.LECTERN_OIDC_SCOPES,
          allowedDomains: (values.LECTERN_OIDC_ALLOWED_DOMAINS ?? '')
            .split(',')
            .map((domain) => domain.trim().toLowerCase())
            .filter(Boolean),
          defaultRole: values.LECTERN_OIDC_DEFAULT_ROLE,
          roleClaim: values.LECTERN_OIDC_ROLE_CLAIM,
        }
      : undefined,
  };
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const displayHost = values.HOST === '0.0.0.0' || values.HOST === '::' ? '127.0.0.1' : values.HOST;
  const providers = environmentProviders(environment);
  return {
    port: values.PORT,
    host: values.HOST,
    dataDirectory: path.resolve(values.LECTERN_DATA_DIR),
    baseUrl: (values.LECTERN_BASE_URL ?? `http://${displayHost}:${values.PORT}`).replace(/\/+$/, ''),
    secret: values.LECTERN_SECRET,
    initialApiKey: values.LECTERN_INIT_API_KEY,
    adminToken: values.LECTERN_ADMIN_TOKEN,
    people: peopleConfig(values),
    bodyLimitBytes: values.LECTERN_BODY_LIMIT_BYTES,
    fileLimitBytes: values.LECTERN_FILE_LIMIT_BYTES,
    fetchTimeoutMs: values.LECTERN_FETCH_TIMEOUT_MS,
    webhookRetryBaseMs: values.LECTERN_WEBHOOK_RETRY_BASE_MS,
    traceRetentionDays: values.LECTERN_TRACE_RETENTION_DAYS,
    runTraces: values.LECTERN_RUN_TRACES === 'true',
    otelExportEndpoint: values.LECTERN_OTEL_EXPORT_ENDPOINT,
    pgliteSharedBuffers: values.LECTERN_PGLITE_SHARED_BUFFERS,
    pgliteOptimizingCompiler: values.LECTERN_PGLITE_OPTIMIZING_COMPILER === 'true',
    embeddingThreads: values.LECTERN_EMBEDDING_THREADS ?? Math.max(1, availableParallelism() - 1),
    modelCacheDirectory: path.resolve(
      values.LECTERN_MODEL_CACHE_DIR ?? path.join(values.LECTERN_DATA_DIR, 'models'),
    ),
    sourceTimeLimitMs: values.LECTERN_SOURCE_TIME_LIMIT_MS,
    sourceTextLimit: values.LECTERN_SOURCE_TEXT_LIMIT,
    outboundAllow: parseAllowList(values.LECTERN_OUTBOUND_ALLOW),
    logLevel: values.LOG_LEVEL,
    databaseUrl: values.DATABASE_URL,
    redisUrl: values.REDIS_URL,
    bucket: bucketConfig(values),
    providerFallbacks: providers.fallbacks,
    shareEnvironmentProviderKeys: values.LECTERN_SHARE_ENV_PROVIDER_KEYS,
    rateLimitPerMinute: values.LECTERN_RATE_LIMIT_PER_MINUTE,
    baseUrlConfigured: values.LECTERN_BASE_URL !== undefined,
    apiKeysPerWorkspace: values.LECTERN_API_KEYS_PER_WORKSPACE,
    webhooksPerWorkspace: values.LECTERN_WEBHOOKS_PER_WORKSPACE,
    eventStreamsPerWorkspace: values.LECTERN_EVENT_STREAMS_PER_WORKSPACE,
    timeouts: {
      requestMs: values.LECTERN_REQUEST_TIMEOUT_MS,
      // Node requires the headers' limit to be within the whole request's.
      headersMs: Math.min(values.LECTERN_HEADERS_TIMEOUT_MS, values.LECTERN_REQUEST_TIMEOUT_MS),
      keepAliveMs: values.LECTERN_KEEP_ALIVE_TIMEOUT_MS,
    },
    jobSlots: {
      interactive: values.LECTERN_INTERACTIVE_JOB_SLOTS,
      bulk: values.LECTERN_BULK_JOB_SLOTS,
      evaluation: values.LECTERN_EVALUATION_JOB_SLOTS,
    },
    consoleSessionIdleMs: Math.round(values.LECTERN_CONSOLE_SESSION_IDLE_HOURS * 60 * 60_000),
    consoleSessionMaxMs: Math.round(values.LECTERN_CONSOLE_SESSION_MAX_HOURS * 60 * 60_000),
    consoleSessionsPerKey: values.LECTERN_CONSOLE_SESSIONS_PER_KEY,
    consoleSignInsPerMinute: values.LECTERN_CONSOLE_SIGN_INS_PER_MINUTE,
    trustProxy: trustProxyOf(values.LECTERN_TRUST_PROXY),
    mockProvider: values.LECTERN_MOCK_PROVIDER === 'on',
    checkResponses: values.LECTERN_CHECK_RESPONSES === 'on',
    providerUrls: providers.urls,
  };
}

const gatewayEnvironmentSchema = z.object({
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65_535).default(4001),
  HOST: z.string().default('127.0.0.1'),
  LECTERN_GATEWAY_UPSTREAM: z.url().default('https://api.openai.com/v1'),
  LECTERN_SERVICE_URL: z.url().default('http://127.0.0.1:4000'),
  LECTERN_GATEWAY_QUEUE_LIMIT: z.coerce.number().int().positive().default(10_000),
  LECTERN_GATEWAY_QUEUE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  LECTERN_GATEWAY_LOG_TEXT_LIMIT: z.coerce.number().int().positive().default(65_536),
  LECTERN_GATEWAY_DATA_DIR: z.string().default('./.lectern-gateway'),
  LECTERN_GATEWAY_SPOOL_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  LECTERN_GATEWAY_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  LOG_LEVEL: environmentSchema.shape.LOG_LEVEL,
});

/** `lectern gateway` (docs/api.md#how-the-parts-behave): where it listens, what it forwards to, where it logs. */
export type GatewayConfig = {
  port: number;
  host: string;
  /** Base URL of the chat-completions provider, e.g. https://api.openai.com/v1 (no trailing slash). */
  upstream: string;
  /** Base URL of the Lectern service that receives the logged interactions. */
  serviceUrl: string;
  /** Interactions waiting to be logged at most; more are dropped and counted. */
  queueLimit: number;
  /** Bytes of interactions waiting to be logged at most (a few huge bodies must not fill memory). */
  queueBytes: number;
  /** Characters kept of each logged text (a message, the output); the rest is cut and marked. */
  logTextLimit: number;
  /** Where the spool of interactions waiting to be logged lives (one gateway per directory). */
  dataDirectory: string;
  /** Bytes of interactions the spool holds at most; beyond, new ones are dropped and counted. */
  spoolBytes: number;
  bodyLimitBytes: number;
  logLevel: Config['logLevel'];
};

export function loadGatewayConfig(environment: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = gatewayEnvironmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  return {
    port: values.GATEWAY_PORT,
    host: values.HOST,
    upstream: values.LECTERN_GATEWAY_UPSTREAM.replace(/\/+$/, ''),
    serviceUrl: values.LECTERN_SERVICE_URL.replace(/\/+$/, ''),
    queueLimit: values.LECTERN_GATEWAY_QUEUE_LIMIT,
    queueBytes: values.LECTERN_GATEWAY_QUEUE_BYTES,
    logTextLimit: values.LECTERN_GATEWAY_LOG_TEXT_LIMIT,
    dataDirectory: path.resolve(values.LECTERN_GATEWAY_DATA_DIR),
    spoolBytes: values.LECTERN_GATEWAY_SPOOL_BYTES,
    bodyLimitBytes: values.LECTERN_GATEWAY_BODY_LIMIT_BYTES,
    logLevel: values.LOG_LEVEL,
  };
}

/** Where the service's database is: PostgreSQL when `DATABASE_URL` is set, else the embedded one. */
export function databaseLocationOf(config: Config) {
  return config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { dataDirectory: config.dataDirectory, sharedBuffers: config.pgliteSharedBuffers };
}
