import { createServer } from 'node:net';
import Klu from '@kluai/core';

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
