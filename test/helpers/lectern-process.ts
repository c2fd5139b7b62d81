import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync } from 'node:fs';
import { podmanCommand, podmanSucceeds } from './podman.js';

const projectRoot = new URL('../..', import.meta.url).pathname;

/**
 * With `LECTERN_TEST_IMAGE` (CI's container pass), `lectern serve` runs from that image instead of
 * `dist/`: `podman run --network host`, the node's environment passed in, its data directory mounted
 * at the same path. The multi-node tests then run against containerised nodes unchanged.
 */
const testImage = process.env.LECTERN_TEST_IMAGE;
/** What a container is given of the test's environment: Lectern's settings, never the host's own. */
const passedToContainers =
  /^(LECTERN_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$|S3_|LOG_LEVEL$|GATEWAY_|OPENAI_|SMTP_|MAIL_)/;
let containers = 0;
const imageUser = 10001;

function containerProcess(args: string[], environment: Record<string, string>): ChildProcess {
  containers += 1;
  const name = `lectern-test-${process.pid}-${containers}`;
  const dataDirectory = environment.LECTERN_DATA_DIR;
  // The image runs as its own user (uid 10001, the Dockerfile's): the test's directory becomes theirs.
  if (dataDirectory && existsSync(dataDirectory)) chownSync(dataDirectory, imageUser, imageUser);
  const variables = Object.entries(environment)
    // The offline models' cache is a host path; the image carries its own (LECTERN_MODEL_CACHE_DIR).
    .filter(([variable]) => passedToContainers.test(variable) && variable !== 'LECTERN_MODEL_CACHE_DIR')
    .flatMap(([variable, value]) => ['--env', `${variable}=${value}`]);
  const child = spawn(
    podmanCommand[0],
    [
      ...podmanCommand.slice(1),
      'run',
      '--rm',
      '--name',
      name,
      '--network',
      'host',
      ...(dataDirectory ? ['--volume', `${dataDirectory}:${dataDirectory}`] : []),
      ...variables,
      testImage!,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // SIGKILL ends the podman client, not the container: kill the container itself, as a crash would.
  const kill = child.kill.bind(child);
  child.kill = (signal?: NodeJS.Signals | number) => {
    // A container already gone is no failure.
    if (signal === 'SIGKILL') podmanSucceeds('kill', '--signal', 'KILL', name);
    return kill(signal);
  };
  return child;
}

/**
 * `lectern <args>` as a separate process, run as users run it: the built `dist/main.js`. The test
 * set-up builds `dist/` first when a source is newer (test/global-setup.ts), so it runs this code.
 */
export function lectern(
  args: string[],
  environment: Record<string, string>,
  /** Another checkout's build (a benchmark's baseline); this one by default. */
  root = projectRoot,
): ChildProcess {
  if (testImage && root === projectRoot) {
    return containerProcess(args, { LECTERN_CHECK_RESPONSES: 'on', ...environment });
  }
  return spawn(process.execPath, ['dist/main.js', ...args], {
    cwd: root,
    // Every answer is checked against its route's declared schema, as in-process tests do.
    env: { LECTERN_CHECK_RESPONSES: 'on', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export type ServingProcess = {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash: nothing is drained or released. Resolves once the process is gone. */
  kill(): Promise<void>;
};

/** Starts `lectern serve` (with `args` such as `--role worker`) on a free port; resolves once it listens. */
export async function serve(
  environment: Record<string, string>,
  args: string[] = [],
  root?: string,
): Promise<ServingProcess> {
  const child = lectern(['serve', ...args], { PORT: '0', ...environment }, root);
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  let listening: string | undefined;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      // Scan only until it listens: rescanning a busy server's growing log would eat the caller's CPU.
      if (listening) return;
      listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (listening) {
        clearTimeout(timer);
        resolve(listening);
      }
    });
    child.on('exit', () => reject(new Error(`serve exited: ${output}`)));
  });
  return {
    baseUrl,
    child,
    output: () => output,
    async kill() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

export type GatewayProcess = {
  address: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
};

/** `lectern gateway` (port 0, `environment` over the defaults); resolves once it listens. */
export async function startGatewayProcess(environment: Record<string, string>): Promise<GatewayProcess> {
  const child = lectern(['gateway'], {
    LOG_LEVEL: 'info',
    ...environment,
    // Always a free port on loopback: the address is read from what it prints.
    GATEWAY_PORT: '0',
    HOST: '127.0.0.1',
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${output}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const found = /Gateway listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.on('exit', () => reject(new Error(`gateway exited: ${output}`)));
  });
  return {
    address,
    child,
    output: () => output,
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * How many attempts of the job `name` this process has started, read from its debug log (serve it
 * with LOG_LEVEL=debug): lets a test kill a node while a job is known to be running.
 */
export function attemptsStarted(serving: ServingProcess, name: string): number {
  return serving
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"job attempt started"') && line.includes(`"name":"${name}"`))
    .length;
}

/** A JSON call over real HTTP to a `lectern serve` process with the given key. */
export function keyedCaller(apiKey: string) {
  return async (baseUrl: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
}

export type KeyedCaller = ReturnType<typeof keyedCaller>;

/**
 * A developer who joins from an invitation (`<name>@example.com`) and makes a viewer key of their
 * own: what they do with it is theirs (a review is a person's).
 */
export async function personKey(call: KeyedCaller, baseUrl: string, name: string): Promise<string> {
  const invited = await call(baseUrl, 'POST', '/v1/members', {
    email: `${name}@example.com`,
    role: 'developer',
  });
  const token = new URL(invited.body.invite_url).searchParams.get('token');
  const accepted = await fetch(`${baseUrl}/console/v1/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, name, password: `a long password of ${name}` }),
  });
  const cookie = /lectern_session=[^;]*/.exec(accepted.headers.get('set-cookie') ?? '')![0];
  const key = await fetch(`${baseUrl}/v1/api_keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'review', role: 'viewer' }),
  });
  return ((await key.json()) as { api_key: string }).api_key;
}

/** A new App with one `{{text}}` Action on a mock model, made over HTTP; answers the Action's GUID. */
export async function createTextAction(
  call: KeyedCaller,
  baseUrl: string,
  action: { app: string; name: string; model: string },
): Promise<string> {
  const app = await call(baseUrl, 'POST', '/v1/apps', { name: action.app });
  const created = await call(baseUrl, 'POST', '/v1/actions/create', {
    app: app.body.guid,
    name: action.name,
    model: action.model,
    prompt: '{{text}}',
  });
  return created.body.guid;
}

/**
 * A prompt that keeps `mock/slow` busy for about `seconds` (it streams one word every 50 ms), long
 * enough to kill or stop a process while the job runs.
 */
export function slowMockText(seconds: number): string {
  return Array.from({ length: Math.round((seconds * 1000) / 50) }, (_, index) => `w${index}`).join(' ');
}
