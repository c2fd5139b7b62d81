import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch, refusalReason } from '../../src/platform/outbound-fetch.js';

let server: Server;
let base: string;

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
    if (request.url === '/missing' || request.url === '/unavailable') {
      response.statusCode = request.url === '/missing' ? 404 : 503;
      return response.end();
    }
    response.setHeader('content-type', 'text/plain');
    response.end('small body');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
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
    ]) {
      expect(refusalReason(address, none), address).toMatch(/not public/);
    }
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
});
