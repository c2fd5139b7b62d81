import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

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

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseAllowed(entries: string[]): Range[] {
  return entries.map((entry) => {
    const cidr = entry.includes('/') ? entry : `${entry}/${isIP(entry) === 6 ? 128 : 32}`;
    return ipaddr.parseCIDR(cidr);
  });
}

const ipv4Compatible = ipaddr.parseCIDR('::/96');

/** IPv6 forms that carry an IPv4 address in their last 32 bits (mapped, translated, NAT64). */
const embeddingRanges = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052']);

/** The address a packet really goes to: an IPv4 address embedded in an IPv6 form, else the address. */
function effectiveAddress(parsed: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (parsed.kind() !== 'ipv6') return parsed;
  const v6 = parsed as ipaddr.IPv6;
  if (!embeddingRanges.has(v6.range())) return v6;
  const bytes = v6.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}

/**
 * Only globally routable unicast addresses: loopback, private (10/8, 172.16/12, 192.168/16),
 * link-local (169.254/16, the cloud metadata address among them), CGNAT (100.64/10), unique-local
 * (fc00::/7), multicast, reserved and IPv4 embedded in IPv6 (mapped, translated, NAT64 — judged by the
 * IPv4 address inside — and the deprecated IPv4-compatible `::a.b.c.d`, 6to4, Teredo) are refused.
 */
export function refusalReason(address: string, allowed: Range[]): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = effectiveAddress(ipaddr.parse(address));
  for (const [network, bits] of allowed) {
    if (network.kind() === parsed.kind() && parsed.match(network, bits)) return undefined;
  }
  const range = parsed.range();
  const deprecated =
    parsed.kind() === 'ipv6' && range === 'unicast' && parsed.match(ipv4Compatible[0], ipv4Compatible[1]);
  if (range === 'unicast' && !deprecated) return undefined;
  return `address ${parsed.toString()} is not public (${deprecated ? 'IPv4-compatible' : range}); only public addresses may be fetched`;
}

export type OutboundGuardOptions = {
  /** Addresses or CIDR ranges reachable although private (`LECTERN_OUTBOUND_ALLOW`: an intranet, a local model). */
  allow: string[];
  timeoutMs: number;
};

export type OutboundGuard = {
  /** Connects only to addresses the guard lets through, checked at connect time (no DNS rebinding). */
  dispatcher: Agent;
  /** Parses a URL and refuses anything but http(s) and a literal address that is not allowed. */
  checkUrl(raw: string): URL;
  /** Whether a host is reached on a private address (allowed by the operator): its answers stay inside. */
  isPrivateHost(hostname: string): boolean;
};

/** The one outbound guard every user-given destination goes through (docs/security.md). */
export function createOutboundGuard(options: OutboundGuardOptions): OutboundGuard {
  const allowed = parseAllowed(options.allow);
  /** Host names last resolved to a private (allowed) address. */
  const privateHosts = new Map<string, boolean>();
  const maximumRemembered = 10_000;

  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as Array<{ address: string; family: number }>;
      for (const { address } of list) {
        const reason = refusalReason(address, allowed);
        // The name, never the address it resolved to: that would map the operator's network for a tenant.
        if (reason)
          return callback(
            new OutboundFetchError(
              `${hostname} resolves to an address that is not public; only public addresses may be fetched`,
              false,
            ),
            '',
            4,
          );
      }
      if (privateHosts.size >= maximumRemembered) privateHosts.clear();
      privateHosts.set(
        hostname,
        list.some(({ address }) => refusalReason(address, []) !== undefined),
      );
      if (lookupOptions.all) return (callback as (e: null, a: typeof list) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };

  return {
    dispatcher: new Agent({ connect: { lookup: guardedLookup, timeout: options.timeoutMs } }),

    checkUrl(raw) {
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
    },

    isPrivateHost(hostname) {
      const host = hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) return refusalReason(host, []) !== undefined;
      // Not looked up yet (no connection made): treat as private, the careful answer.
      return privateHosts.get(host) ?? true;
    },
  };
}
