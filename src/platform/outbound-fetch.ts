import { request } from 'undici';
import { createOutboundGuard, OutboundFetchError } from './outbound-guard.js';

export type OutboundFetchOptions = {
  /** Addresses or CIDR ranges reachable although private (an intranet file server; tests). */
  allow: string[];
  maximumBytes: number;
  timeoutMs: number;
  maximumRedirects?: number;
};

export type FetchedResource = { status: number; bytes: Buffer; contentType?: string; url: string };

export type OutboundRequest = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Answer a 4xx or 5xx like any other response instead of failing (an HTTP skill shows it). */
  acceptErrorStatus?: boolean;
  /** False: a redirect is answered as it is, never followed (a webhook's receiver must answer itself). */
  followRedirects?: boolean;
};

export type OutboundFetch = (url: string, request?: OutboundRequest) => Promise<FetchedResource>;

/** Headers that carry credentials: never sent on to another origin by a redirect. */
const credentialHeaders = new Set(['authorization', 'cookie', 'proxy-authorization']);

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !credentialHeaders.has(name.toLowerCase())),
  );
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a user-given URL (a Context Source, an HTTP skill; docs/security.md): http(s) only, every resolved
 * address checked at connect time (so DNS rebinding cannot slip through), every redirect checked
 * again, the body capped in size and the whole fetch in time.
 */
export function createOutboundFetch(options: OutboundFetchOptions): OutboundFetch {
  const guard = createOutboundGuard(options);
  const maximumRedirects = options.maximumRedirects ?? 5;
  const checkUrl = guard.checkUrl;

  return async (raw, outbound = {}) => {
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const combined = outbound.signal ? AbortSignal.any([outbound.signal, deadline]) : deadline;
    let url = checkUrl(raw);
    let method = (outbound.method ?? 'GET').toUpperCase();
    let requestHeaders = outbound.headers ?? {};
    let requestBody = outbound.body;
    for (let redirects = 0; ; redirects++) {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          dispatcher: guard.dispatcher,
          signal: combined,
          method,
          headers: requestHeaders,
          body: requestBody,
        });
      } catch (error) {
        if (error instanceof OutboundFetchError) throw error;
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof OutboundFetchError) throw cause;
        if (deadline.aborted) throw new OutboundFetchError(`no answer within ${options.timeoutMs} ms`, true);
        throw new OutboundFetchError(`fetch failed: ${(error as Error).message}`, true);
      }
      const { statusCode, headers, body } = response;
      if (redirectStatuses.has(statusCode) && outbound.followRedirects !== false) {
        await body.dump();
        const location = headers.location;
        if (typeof location !== 'string')
          throw new OutboundFetchError(`redirect ${statusCode} without a location`, false);
        if (redirects >= maximumRedirects) throw new OutboundFetchError('too many redirects', false);
        const next = checkUrl(new URL(location, url).toString());
        if (next.origin !== url.origin) requestHeaders = withoutCredentials(requestHeaders);
        // As browsers do: 303, and 301/302 after anything but GET or HEAD, continue as a GET without a body.
        if (statusCode === 303 || ((statusCode === 301 || statusCode === 302) && method !== 'HEAD')) {
          if (method !== 'GET' && method !== 'HEAD') method = 'GET';
          requestBody = undefined;
        }
        url = next;
        continue;
      }
      if (statusCode >= 400 && !outbound.acceptErrorStatus) {
        await body.dump();
        throw new OutboundFetchError(
          `the server answered ${statusCode}`,
          statusCode === 429 || statusCode >= 500,
        );
      }
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maximumBytes) {
        await body.dump();
        throw new OutboundFetchError(`the file is larger than ${options.maximumBytes} bytes`, false);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > options.maximumBytes) {
          body.destroy();
          throw new OutboundFetchError(`the file is larger than ${options.maximumBytes} bytes`, false);
        }
        chunks.push(chunk as Buffer);
      }
      const contentType = headers['content-type'];
      return {
        status: statusCode,
        bytes: Buffer.concat(chunks),
        contentType: typeof contentType === 'string' ? contentType : undefined,
        url: url.toString(),
      };
    }
  };
}
