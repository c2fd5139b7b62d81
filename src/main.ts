#!/usr/bin/env node
import pino, { type Logger } from 'pino';
import { type Config, ConfigError, databaseLocationOf, loadConfig, loadGatewayConfig } from './config.js';
import { type MemberRole, memberRoles } from './core/roles.js';
import { AppError } from './errors.js';
import { prepareDataDirectory } from './platform/data-directory.js';
import { DataDirectoryInUseError } from './platform/data-directory-lock.js';
import { startEmbeddedDatabase } from './platform/database/embedded-start.js';
import { createLogger, flushLogs } from './platform/logger.js';
import { compileWebAssemblyWithBaselineOnly } from './platform/webassembly-compiler.js';
import { PromptFileError, UnsafePathError } from './prompt-files/errors.js';
import { ServiceError } from './prompt-files/service-client.js';
import type { Services } from './services.js';

// Each command loads only what it runs: the gateway never loads the service (AI SDK, retrieval,
// database drivers), and the service never loads the gateway.
const loadService = async () => ({
  ...(await import('./app.js')),
  ...(await import('./platform/platform.js')),
  ...(await import('./services.js')),
});

const usage = `Usage: lectern <command>

  serve [--role ROLE]       start the service (default http://127.0.0.1:4000); ROLE is
                            all (default), api (HTTP only) or worker (jobs; health routes only)
  gateway                   start the chat-completions gateway (default http://127.0.0.1:4001)
  workspace create NAME     create a workspace and print its first API key
  key create WORKSPACE      create an API key for a workspace (GUID or name)
  key revoke KEY_GUID       revoke an API key
  user create EMAIL --workspace W --role R
                            add a person to a workspace (made if new) and print a link
                            where they set their password
  audit verify              check the audit log's hash chain; exit 1 if it is broken
  prompts export [--environment E] [--out FILE] [--url URL] [--key KEY]
                            write the deployed prompts of the key's workspace as a snapshot
                            (JSON) that @lectern/client serves from
  prompts pull --dir DIR    write every Action (DIR/<folder>/<slug>.prompt) and snippet
                            (DIR/<folder>/<name>.snippet) of the key's workspace, and
                            DIR/.lectern/state.json
  prompts push --dir DIR [--dry-run] [--deploy ENV]
                            save a new version of each file changed since its pull, create
                            what is new; --deploy ENV deploys what it saved (through the release
                            gates); exit 0 done, 3 a conflict, 2 a gate refused, 1 other errors
  eval --action SLUG [--version N] --gate ENV
                            run ENV's release-gate evaluation of the version (default: latest),
                            print each evaluator's mean and interval; exit 0 if a deploy there
                            would pass, 2 if not
                            (prompts and eval ask the running service at --url, else LECTERN_URL,
                            else LECTERN_BASE_URL, with --key, else LECTERN_API_KEY)
  migrate                   apply database migrations and exit

Configuration comes from the environment; see README.md.
The CLI opens the database itself: with the embedded default it refuses while a server holds
the data directory (stop the server first, or use the admin API, LECTERN_ADMIN_TOKEN).`;

type Role = 'all' | 'api' | 'worker';

/**
 * The embedded database opens in its own thread while this one loads the service's modules: a
 * restart answers ~0.3 s sooner. Its failure (the data directory held by another process) is
 * thrown where createPlatform awaits it, never as an unhandled rejection meanwhile.
 */
function startEmbeddedDatabaseEarly(config: Config, logger: Logger) {
  const location = databaseLocationOf(config);
  if ('databaseUrl' in location) return undefined;
  prepareDataDirectory(config.dataDirectory);
  const started = startEmbeddedDatabase(location, (message) => logger.warn(message));
  started.catch(() => undefined);
  return started;
}

/** How long SIGTERM waits for requests, streams and jobs before the process exits anyway. */
const shutdownLimitMs = 30_000;

function roleOf(argv: string[]): Role {
  const index = argv.indexOf('--role');
  const role = index === -1 ? 'all' : argv[index + 1];
  if (role !== 'all' && role !== 'api' && role !== 'worker') {
    throw new ConfigError(`--role must be all, api or worker (got ${role ?? 'nothing'})`);
  }
  return role;
}

async function serve(role: Role): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig();
  if (!config.databaseUrl && !config.pgliteOptimizingCompiler) compileWebAssemblyWithBaselineOnly();
  const logger = createLogger(config);
  const startedDatabase = startEmbeddedDatabaseEarly(config, logger);
  const { createPlatform, buildApp } = await loadService();
  const platform = await createPlatform(config, logger, { startedDatabase });
  const app = await buildApp(platform, { api: role !== 'worker' });
  // From here on a SIGTERM stops the service cleanly, also one that arrives while it still starts
  // (a supervisor that gives up on a slow start): before, the default action killed it mid-start.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Referenced: the shutdown runs to its end (the database closed, its lock released) or to this
    // limit, never cut short because the loop emptied while it awaited an unreferenced handle.
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, shutdownLimitMs);
    // Stops accepting; running requests and open streams finish (their generations are awaited),
    // then jobs are released (a running one finishes or, past the drain time, is left to lapse).
    await app.close();
    await platform.close();
    await flushLogs(logger);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  const bootstrap = await app.services.workspaces.bootstrap(config.initialApiKey);
  if (bootstrap.created) {
    const shown = config.initialApiKey ? '(the key given in LECTERN_INIT_API_KEY)' : bootstrap.apiKey;
    process.stdout.write(
      `\nLectern created workspace "default" and its first API key. It is shown only this once:\n\n  ${shown}\n\n`,
    );
  }
  // The first owner: from LECTERN_INIT_OWNER_EMAIL/_PASSWORD, or a setup link printed once.
  const firstWorkspace = await app.services.workspaces.findWorkspace('default').catch(() => undefined);
  if (firstWorkspace && role !== 'worker') {
    const owner = await app.services.accounts.bootstrapOwner(firstWorkspace.id, config.people.initialOwner);
    if (owner.owner) logger.info({ user: owner.owner.id }, 'made the first owner of workspace "default"');
    if (owner.setupUrl)
      process.stdout.write(
        `\nNo one can sign in to the console yet. Open this link within 24 hours to set the first owner's e-mail and password (it works once):\n\n  ${owner.setupUrl}\n\n`,
      );
  }
  const retentionDays = config.people.auditRetentionDays;
  if (retentionDays > 0 && role !== 'api') {
    const prune = () =>
      app.services.audit
        .prune(retentionDays)
        .catch((error: unknown) => logger.warn({ err: error }, 'audit log pruning failed'));
    void prune();
    setInterval(prune, 60 * 60_000).unref();
  }
  if (role !== 'api') {
    // Past LECTERN_TRACE_RETENTION_DAYS a day of spans is one DROP TABLE; it runs at start and hourly.
    const expireTraces = () =>
      app.services.traces
        .removeExpired()
        .catch((error: unknown) => logger.warn({ err: error }, 'trace retention failed'));
    void expireTraces();
    setInterval(expireTraces, 60 * 60_000).unref();
  }
  // An api node leaves jobs to worker nodes; it still enqueues them.
  const takesJobs = role !== 'api';
  // A SIGTERM during the start: the stop above closes everything; nothing more is started.
  if (stopping) return;
  if (takesJobs) {
    platform.jobs.start();
    // Deliveries whose drain was lost with a node (one queued after a commit that a crash
    // interrupted) go out now and each minute; a duplicate drain finds nothing to send.
    const resume = () =>
      app.services.webhooks
        .resume()
        .catch((error: unknown) => logger.warn({ err: error }, 'could not resume webhook deliveries'));
    void resume();
    setInterval(resume, 60_000).unref();
  }
  if (stopping) return;
  await app.listen({ port: config.port, host: config.host });
  const startupMs = Math.round(performance.now() - startedAt);
  logger.info(
    { baseUrl: config.baseUrl, storage: platform.database.kind, role, takesJobs, startupMs },
    'Lectern is listening',
  );
}

/** `lectern gateway`: the chat-completions proxy that logs to the service (docs/api.md#how-the-parts-behave). */
async function gateway(): Promise<void> {
  const config = loadGatewayConfig();
  const logger = createLogger(config);
  const { createGateway } = await import('./gateway/gateway.js');
  const proxy = createGateway(config, logger);
  const address = await proxy.listen(config.port, config.host);
  // Printed at any log level: scripts and supervisors wait for this line.
  process.stdout.write(`Gateway listening at ${address}\n`);
  logger.info({ upstream: config.upstream, service: config.serviceUrl }, 'gateway started');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await proxy.close();
    await flushLogs(logger);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * Runs an offline command against the database with the services, then closes everything. The
 * change and its audit record (actor `system`, action `CLI <command>`) are one transaction.
 */
async function withServices<T>(
  work: (services: Services) => Promise<T>,
  audited?: {
    action: string;
    record: (result: T) => { workspaceId: string; resource: { type: string; id: string } };
  },
): Promise<T> {
  const config = loadConfig();
  // Offline commands print their result on stdout; their warnings go to stderr, written at once.
  const logger = createLogger({ logLevel: 'warn' }, pino.destination({ dest: 2, sync: true }));
  const { createPlatform, createServices } = await loadService();
  const platform = await createPlatform(config, logger);
  try {
    const services = createServices(platform);
    if (!audited) return await work(services);
    return await platform.transactions.run(async () => {
      const result = await work(services);
      const { workspaceId, resource } = audited.record(result);
      await services.audit.append({
        workspaceId,
        actor: { type: 'system', id: null, label: 'lectern CLI' },
        action: `CLI ${audited.action}`,
        resource,
        status: 200,
      });
      return result;
    });
  } finally {
    await platform.close();
  }
}

function optionOf(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
}

/**
 * The running service a `prompts` or `eval` command asks: `--url`, else `LECTERN_URL`, else the
 * service's own `LECTERN_BASE_URL` (or its HOST and PORT); `--key`, else `LECTERN_API_KEY`.
 */
function serviceAddress(argv: string[]): { baseUrl: string; apiKey: string | undefined } {
  return {
    baseUrl: optionOf(argv, '--url') ?? process.env.LECTERN_URL ?? loadConfig().baseUrl,
    apiKey: optionOf(argv, '--key') ?? process.env.LECTERN_API_KEY,
  };
}

/** `prompts pull|push` and `eval --gate`: the service's API from CI (docs/prompts-as-code.md). */
async function promptFiles(command: string, subcommand: string | undefined, argv: string[]): Promise<number> {
  const { createServiceClient } = await import('./prompt-files/service-client.js');
  const address = serviceAddress(argv);
  const print = (line: string) => console.log(line);
  if (command === 'eval') {
    const action = optionOf(argv, '--action');
    const environment = optionOf(argv, '--gate');
    const version = optionOf(argv, '--version');
    if (!action || !environment || (version !== undefined && !/^[1-9]\d*$/.test(version)))
      throw new ConfigError('eval needs --action SLUG and --gate ENV (and --version N, a number, if given)');
    const { evaluateGate } = await import('./prompt-files/evaluation-gate.js');
    const client = createServiceClient(address, 'eval');
    return evaluateGate(client, {
      action,
      environment,
      version: version ? Number(version) : undefined,
      print,
    });
  }
  const directory = optionOf(argv, '--dir');
  if (!directory) throw new ConfigError(`prompts ${subcommand} needs --dir DIR`);
  const client = createServiceClient(address, `prompts ${subcommand}`);
  if (subcommand === 'pull') {
    const { pullPrompts } = await import('./prompt-files/pull.js');
    const lines = await pullPrompts(client, directory);
    for (const line of lines) print(line);
    return 0;
  }
  const { pushPrompts } = await import('./prompt-files/push.js');
  const deploy = optionOf(argv, '--deploy');
  if (argv.includes('--deploy') && !deploy) throw new ConfigError('--deploy needs an environment');
  const pushed = await pushPrompts(client, { directory, dryRun: argv.includes('--dry-run'), deploy });
  for (const line of pushed.lines) print(line);
  return pushed.exitCode;
}

function isMemberRole(role: string | undefined): role is MemberRole {
  return memberRoles.includes(role as MemberRole);
}

async function main(argv: string[]): Promise<void> {
  const [command, subcommand, argument] = argv;
  if (command === 'serve' || command === undefined) return serve(roleOf(argv));
  if (command === 'gateway') return gateway();
  if (command === 'migrate') {
    const config = loadConfig();
    const { openDatabase } = await import('./platform/database/connection.js');
    const handle = await openDatabase(databaseLocationOf(config), (message) => console.warn(message));
    await handle.close();
    console.log(`Migrations applied (${handle.kind}).`);
    return;
  }
  if (command === 'workspace' && subcommand === 'create' && argument) {
    const { workspace, apiKey } = await withServices(
      (services) => services.workspaces.createWorkspace(argument),
      {
        action: 'workspace create',
        record: (created) => ({
          workspaceId: created.workspace.id,
          resource: { type: 'workspace', id: created.workspace.id },
        }),
      },
    );
    console.log(`workspace ${workspace.id} (${workspace.name})\napi key (shown once): ${apiKey}`);
    return;
  }
  if (command === 'key' && subcommand === 'create' && argument) {
    const { key, apiKey } = await withServices((services) => services.workspaces.createApiKey(argument), {
      action: 'key create',
      record: (created) => ({
        workspaceId: created.key.workspaceId,
        resource: { type: 'api_key', id: created.key.id },
      }),
    });
    console.log(`api key ${key.id} for workspace ${key.workspaceId} (shown once): ${apiKey}`);
    return;
  }
  if (command === 'user' && subcommand === 'create' && argument) {
    const workspace = optionOf(argv, '--workspace');
    const role = optionOf(argv, '--role');
    if (!workspace || !isMemberRole(role))
      throw new ConfigError('user create needs --workspace W and --role viewer|developer|admin|owner');
    const printed = await withServices(
      async (services) => {
        const found = await services.workspaces.findWorkspace(workspace);
        const user = await services.accounts.addMember(found.id, argument, role);
        const reset = user.passwordHash ? undefined : await services.accounts.issuePasswordReset(user);
        return { user, found, reset };
      },
      {
        action: 'user create',
        record: ({ user, found }) => ({ workspaceId: found.id, resource: { type: 'member', id: user.id } }),
      },
    );
    console.log(
      `user ${printed.user.id} (${printed.user.email}) is ${role} of workspace ${printed.found.name}`,
    );
    if (printed.reset) console.log(`set a password within 24 hours (works once): ${printed.reset.url}`);
    return;
  }
  if (command === 'prompts' && subcommand === 'export') {
    const { exportPrompts } = await import('./export-prompts.js');
    const written = await exportPrompts({
      ...serviceAddress(argv),
      environment: optionOf(argv, '--environment'),
      out: optionOf(argv, '--out'),
    });
    console.error(`exported ${written}`);
    return;
  }
  if ((command === 'prompts' && (subcommand === 'pull' || subcommand === 'push')) || command === 'eval') {
    process.exitCode = await promptFiles(command, subcommand, argv);
    return;
  }
  if (command === 'audit' && subcommand === 'verify') {
    const check = await withServices((services) => services.audit.verify());
    if (check.intact) console.log(`audit log intact: ${check.records} records chained`);
    else {
      console.error(
        `audit log broken at position ${check.brokenAt}: ${check.problem} (${check.records} records verified before it)`,
      );
      process.exitCode = 1;
    }
    return;
  }
  if (command === 'key' && subcommand === 'revoke' && argument) {
    const revoked = await withServices((services) => services.workspaces.revokeApiKey(argument), {
      action: 'key revoke',
      record: (key) => ({ workspaceId: key.workspaceId, resource: { type: 'api_key', id: key.id } }),
    });
    console.log(`api key ${revoked.id} revoked at ${revoked.revokedAt!.toISOString()}`);
    return;
  }
  console.error(usage);
  process.exitCode = command === 'help' || command === '--help' ? 0 : 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof AppError ||
    error instanceof DataDirectoryInUseError ||
    error instanceof ServiceError ||
    error instanceof PromptFileError ||
    error instanceof UnsafePathError
  )
    console.error(error.message);
  else console.error(error);
  process.exit(1);
});
