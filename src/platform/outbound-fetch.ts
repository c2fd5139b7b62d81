import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';

/** Why an outbound fetch was refused or failed; the message is safe to show to the workspace. */
export class OutboundFetchError extends Error {
  constructor(
    message: string,
    /** Whether trying again later may succeed (network trouble, 5xx, 429). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'OutboundFetchError';
  }
}

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
};

export type OutboundFetch = (url: string, request?: OutboundRequest) => Promise<FetchedResource>;

/** Headers that carry credentials: never sent on to another origin by a redirect. */
const credentialHeaders = new Set(['authorization', 'cookie', 'proxy-authorization']);

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !credentialHeaders.has(name.toLowerCase())),
  );
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseAllowed(entries: string[]): Range[] {
  return entries.map((entry) => {
    const cidr = entry.includes('/') ? entry : `${entry}/${isIP(entry) === 6 ? 128 : 32}`;
    return ipaddr.parseCIDR(cidr);
  });
}

/**
 * Only globally routable unicast addresses: loopback, private (10/8, 172.16/12, 192.168/16),
 * link-local (169.254/16, the cloud metadata address among them), CGNAT (100.64/10), unique-local
 * (fc00::/7), multicast, reserved and IPv4 embedded in IPv6 (mapped, 6to4, Teredo) are refused.
 */
export function refusalReason(address: string, allowed: Range[]): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  for (const [network, bits] of allowed) {
    if (network.kind() === parsed.kind() && parsed.match(network, bits)) return undefined;
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return `address ${parsed.toString()} is not public (${range}); only public addresses may be fetched`;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a user-given URL (a Context Source, an HTTP skill; DESIGN.md §2): http(s) only, every resolved
 * address checked at connect time (so DNS rebinding cannot slip through), every redirect checked
 * again, the body capped in size and the whole fetch in time.
 */
export function createOutboundFetch(options: OutboundFetchOptions): OutboundFetch {
  const allowed = parseAllowed(options.allow);
  const maximumRedirects = options.maximumRedirects ?? 5;

  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as Array<{ address: string; family: number }>;
      for (const { address } of list) {
        const reason = refusalReason(address, allowed);
        if (reason) return callback(new OutboundFetchError(`${hostname}: ${reason}`, false), '', 4);
      }
      if (lookupOptions.all) return (callback as (e: null, a: typeof list) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
  const agent = new Agent({ connect: { lookup: guardedLookup, timeout: options.timeoutMs } });

  function checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundFetchError(`"${raw}" is not a URL`, false);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundFetchError(`${url.protocol} URLs cannot be fetched (http and https only)`, false);
    }
    // The URL parser has already turned 127.1 and 0x7f000001 into 127.0.0.1. A literal address is
    // never looked up, so it is checked here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const reason = refusalReason(host, allowed);
      if (reason) throw new OutboundFetchError(reason, false);
    }
    return url;
  }

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
          dispatcher: agent,
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
      if (redirectStatuses.has(statusCode)) {
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
