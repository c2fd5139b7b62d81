import { ConfigError } from '../config.js';

/** An answer of the service that was not a success: its status and its error body's code and message. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }
}

export type ServiceClient = {
  request<Answer>(method: string, path: string, body?: unknown): Promise<Answer>;
  /** How many requests that change something were sent (a push that changes nothing sends none). */
  writes(): number;
};

export type ServiceAddress = { baseUrl: string; apiKey: string | undefined };

/** The running service's API over HTTP, with the key the CLI was given (`--key` or LECTERN_API_KEY). */
export function createServiceClient({ baseUrl, apiKey }: ServiceAddress, command: string): ServiceClient {
  if (!apiKey) throw new ConfigError(`${command} needs an API key: --key KEY or LECTERN_API_KEY`);
  let writes = 0;
  return {
    async request<Answer>(method: string, path: string, body?: unknown): Promise<Answer> {
      if (method !== 'GET') writes += 1;
      const response = await fetch(new URL(path, baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).catch((error: unknown) => {
        throw new ConfigError(`could not reach ${baseUrl}: ${(error as Error).message}`);
      });
      const text = await response.text();
      const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (!response.ok) {
        const error = (parsed.error ?? {}) as { code?: string; message?: string; details?: unknown };
        throw new ServiceError(
          response.status,
          error.code ?? 'error',
          error.message ?? `${method} ${path} answered ${response.status}`,
          error.details,
        );
      }
      return parsed as Answer;
    },
    writes: () => writes,
  };
}
