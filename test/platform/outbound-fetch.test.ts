import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch } from '../../src/platform/outbound-fetch.js';
import { refusalReason } from '../../src/platform/outbound-guard.js';

let server: Server;
let base: string;
let otherOrigin: Server;
let otherBase: string;
type Seen = { method: string; url: string; authorization?: string; body: string };
const seen: Seen[] = [];

/** Records what arrived and answers it as JSON. */
function recorder(
  request: import('node:http').IncomingMessage,
  response: import('node:http').ServerResponse,
) {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const entry = {
      method: request.method!,
      url: request.url!,
      authorization: request.headers.authorization,
      body,
    };
    seen.push(entry);
    response.end(JSON.stringify(entry));
  });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/big') return response.end(Buffer.alloc(5000, 1));
    if (request.url === '/chunked-big') {
      response.write(Buffer.alloc(600, 1));
      response.write(Buffer.alloc(600, 1));
      return response.end();
    }
    if (request.url === '/silent') return; // never answers
    if (request.url === '/loop') {
      response.statusCode = 302;
      response.setHeader('location', '/loop');
      return response.end();
    }
    if (request.url === '/moved') {
      response.statusCode = 301;
      response.setHeader('location', '/small');
      return response.end();
    }
    if (request.url === '/echo') return recorder(request, response);
    if (request.url === '/see-other' || request.url === '/temporary' || request.url === '/away') {
      response.statusCode = request.url === '/see-other' ? 303 : 307;
      response.setHeader('location', request.url === '/away' ? `${otherBase}/echo` : '/echo');
      return response.end();
    }
    if (request.url === '/missing' || request.url === '/unavailable') {
      response.statusCode = request.url === '/missing' ? 404 : 503;
      return response.end();
    }
    response.setHeader('content-type', 'text/plain');
    response.end('small body');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  otherOrigin = createServer(recorder);
  await new Promise<void>((resolve) => otherOrigin.listen(0, '127.0.0.1', resolve));
  otherBase = `http://127.0.0.1:${(otherOrigin.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const each of [server, otherOrigin]) {
    each.closeAllConnections();
    each.close();
  }
});

describe('outbound fetch guard', () => {
  it('lets only public unicast addresses through, unless allow-listed', () => {
    const none: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
    for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888']) {
      expect(refusalReason(address, none), address).toBeUndefined();
    }
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.1.2.3',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      '2002:7f00:1::',
      // IPv4-compatible (deprecated), translated and NAT64 forms of private IPv4 addresses.
      '::7f00:1',
      '::a9fe:a9fe',
      '::a00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '64:ff9b::a9fe:a9fe',
    ]) {
      expect(refusalReason(address, none), address).toMatch(/not public/);
    }
    // NAT64 of a public address is public.
    expect(refusalReason('64:ff9b::808:808', none)).toBeUndefined();
    const allowed = [ipaddr.parseCIDR('10.0.0.0/8')];
    expect(refusalReason('10.20.30.40', allowed)).toBeUndefined();
    expect(refusalReason('11.0.0.1', allowed)).toBeUndefined();
    expect(refusalReason('192.168.1.1', allowed)).toMatch(/not public/);
  });

  it('caps the size, the time and the redirects, and follows a good redirect', async () => {
    const fetch = createOutboundFetch({ allow: ['127.0.0.1'], maximumBytes: 1000, timeoutMs: 500 });
    const small = await fetch(`${base}/moved`);
    expect(small.bytes.toString()).toBe('small body');
    expect(small.contentType).toBe('text/plain');
    expect(small.url).toBe(`${base}/small`);
    await expect(fetch(`${base}/big`)).rejects.toThrow(/larger than 1000 bytes/);
    await expect(fetch(`${base}/chunked-big`)).rejects.toThrow(/larger than 1000 bytes/);
    await expect(fetch(`${base}/silent`)).rejects.toMatchObject({
      retryable: true,
      message: /no answer within 500 ms/,
    });
    await expect(fetch(`${base}/loop`)).rejects.toThrow(/too many redirects/);
    await expect(fetch(`${base}/missing`)).rejects.toMatchObject({
      retryable: false,
      message: /answered 404/,
    });
    await expect(fetch(`${base}/unavailable`)).rejects.toMatchObject({
      retryable: true,
      message: /answered 503/,
    });
    await expect(fetch('ftp://127.0.0.1/file')).rejects.toThrow(/http and https only/);
    const guarded = createOutboundFetch({ allow: [], maximumBytes: 1000, timeoutMs: 500 });
    await expect(guarded(`${base}/small`)).rejects.toMatchObject({ retryable: false, message: /not public/ });
  });

  it('sends a method, headers and body; follows redirects as browsers do; keeps credentials on their origin', async () => {
    const fetch = createOutboundFetch({ allow: ['127.0.0.1'], maximumBytes: 10_000, timeoutMs: 2_000 });
    const request = {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'text/plain' },
      body: 'hi',
    };
    const direct = JSON.parse((await fetch(`${base}/echo`, request)).bytes.toString());
    expect(direct).toEqual({ method: 'POST', url: '/echo', authorization: 'Bearer k', body: 'hi' });
    // 307 repeats the request; 303 continues as a GET without the body.
    expect(JSON.parse((await fetch(`${base}/temporary`, request)).bytes.toString())).toMatchObject({
      method: 'POST',
      body: 'hi',
    });
    expect(JSON.parse((await fetch(`${base}/see-other`, request)).bytes.toString())).toMatchObject({
      method: 'GET',
      body: '',
    });
    const away = JSON.parse((await fetch(`${base}/away`, request)).bytes.toString());
    expect(away).toMatchObject({ method: 'POST', body: 'hi' });
    expect(away.authorization).toBeUndefined();
    // An error status is an answer, not a failure, when the caller asks for it.
    const missing = await fetch(`${base}/missing`, { acceptErrorStatus: true });
    expect(missing.status).toBe(404);
  });
});
