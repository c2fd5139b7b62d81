import { createServer } from 'node:net';
import Klu from '@kluai/core';
import { Klu as LecternKlu } from '@lectern/client/klu';
import { beforeAll } from 'vitest';
import { useTestWorkspace } from './test-app.js';

/** Where each client of the official SDK sends its requests, under `/v1` (its own constants). */
const clientPaths = {
  apps: '/apps/',
  data: '/data/',
  actions: '/actions/',
  contexts: '/context/',
  feedback: '/feedback/',
  workspaces: '/workspace/',
  experiments: '/experiments/',
  models: '/models/',
  sessions: '/sessions/',
  fineTune: '/finetune/',
} as const;

export type KluClient = InstanceType<typeof Klu>;

/**
 * The two clients the compatibility suite runs against: Klu's own SDK, and Lectern's drop-in
 * (`@lectern/client/klu`), typed as the SDK so every call is written once, as a Klu user writes it.
 */
export const sdkKinds = ['official', 'lectern'] as const;
export type SdkKind = (typeof sdkKinds)[number];

/** Lectern's Klu-compatible client at `address`: what a Klu user gets by changing one import. */
export function lecternKluAt(apiKey: string, address: string): KluClient {
  return new LecternKlu(apiKey, { baseUrl: address }) as unknown as KluClient;
}

/**
 * The official SDK pointed at a Lectern at `address`. The SDK knows two addresses only (Klu's and
 * localhost:4000 with KLU_ENV=dev), so each client's axios base URL is set as KLU_ENV would set it;
 * every request, body and answer is the SDK's own.
 */
export function kluAt(apiKey: string, address: string): KluClient {
  const klu = new Klu(apiKey);
  for (const [name, path] of Object.entries(clientPaths)) {
    const client = klu[name as keyof typeof clientPaths] as unknown as {
      getAxiosInstance(): { defaults: { baseURL?: string } };
    };
    client.getAxiosInstance().defaults.baseURL = `${address}/v1${path}`;
  }
  // The one client the SDK makes per call (a session's data pages) is pointed there too.
  type Paginator = { axiosInstance: { defaults: { baseURL?: string } } };
  const sessions = klu.sessions as unknown as {
    getDataPaginator(session: string, pageSize?: number): Paginator;
  };
  const dataPaginator = sessions.getDataPaginator.bind(sessions);
  sessions.getDataPaginator = (session, pageSize) => {
    const paginator = dataPaginator(session, pageSize);
    paginator.axiosInstance.defaults.baseURL = `${address}/v1/sessions/${session}/data`;
    return paginator;
  };
  return klu;
}

/** A free local port, so a test app's LECTERN_BASE_URL can name the address it will listen on. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A test file's Lectern listening on a port of its own, with LECTERN_BASE_URL naming it (so returned
 * URLs, such as presigned uploads, reach it), and the SDK (`kind`: Klu's, by default, or Lectern's
 * drop-in) pointed at it. Read the fields inside tests.
 */
export function useSdkWorkspace(
  environment: () => Record<string, string> = () => ({}),
  options: { startJobs?: boolean; ownJobQueue?: boolean; kind?: SdkKind } = {},
): { context: ReturnType<typeof useTestWorkspace>; klu: KluClient; port: number } {
  const state = {} as { context: ReturnType<typeof useTestWorkspace>; klu: KluClient; port: number };
  beforeAll(async () => {
    state.port = await freePort();
  });
  state.context = useTestWorkspace(
    () => ({ LECTERN_BASE_URL: `http://127.0.0.1:${state.port}`, ...environment() }),
    options,
  );
  beforeAll(async () => {
    await state.context.test.app.listen({ port: state.port, host: '127.0.0.1' });
    const clientAt = options.kind === 'lectern' ? lecternKluAt : kluAt;
    state.klu = clientAt(state.context.client.apiKey, `http://127.0.0.1:${state.port}`);
  });
  return state;
}
