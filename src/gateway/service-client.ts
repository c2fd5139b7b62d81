import { Pool } from 'undici';

/** The service answered with an error that trying again will not change (a 4xx). */
export class ServiceRejectedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceRejectedError';
  }
}

/** The service could not be reached or failed (network error, 5xx): worth trying again later. */
export class ServiceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServiceUnavailableError';
  }
}

type Answer = { status: number; body: unknown };

/**
 * The gateway's calls to the Lectern service, over one keep-alive pool. The workspace key goes in
 * the Authorization header of each call and nowhere else.
 */
export function createServiceClient(serviceUrl: string) {
  const base = new URL(serviceUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, { connections: 16, pipelining: 1 });

  async function call(method: 'GET' | 'POST', path: string, key: string, body?: unknown): Promise<Answer> {
    let response: Awaited<ReturnType<Pool['request']>>;
    try {
      response = await pool.request({
        method,
        path: `${basePath}${path}`,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
    } catch (error) {
      throw new ServiceUnavailableError(`the service is unreachable: ${(error as Error).message}`);
    }
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): keep the text.
    }
    if (response.statusCode >= 500) {
      throw new ServiceUnavailableError(`the service answered ${response.statusCode}`);
    }
    return { status: response.statusCode, body: parsed };
  }

  const messageOf = (answer: Answer) =>
    (answer.body as { message?: string } | undefined)?.message ?? `the service answered ${answer.status}`;

  return {
    /** Whether the key is valid and its workspace has the Action (docs/api.md#how-the-parts-behave). */
    async canLog(key: string, actionGuid: string): Promise<boolean> {
      const answer = await call('GET', `/v1/actions/${encodeURIComponent(actionGuid)}`, key);
      if (answer.status === 200) return true;
      if (answer.status === 401 || answer.status === 403 || answer.status === 404 || answer.status === 400)
        return false;
      throw new ServiceUnavailableError(`the service answered ${answer.status}`);
    },

    /** Stores records with `POST /v1/data/batch`: all or none. */
    async logBatch(key: string, records: unknown[]): Promise<void> {
      const answer = await call('POST', '/v1/data/batch', key, { records });
      if (answer.status !== 201) throw new ServiceRejectedError(answer.status, messageOf(answer));
    },

    /** docs/api.md#runs gateway payload: an Action's rendered request, resolved for a managed prompt. */
    async gatewayPayload(
      key: string,
      action: string,
      request: { input: unknown; environment?: string },
    ): Promise<Record<string, unknown>> {
      const path = `/v1/actions/${encodeURIComponent(action)}/gateway_payload`;
      const answer = await call('POST', path, key, request);
      if (answer.status !== 200) throw new ServiceRejectedError(answer.status, messageOf(answer));
      return answer.body as Record<string, unknown>;
    },

    close: () => pool.close(),
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;
