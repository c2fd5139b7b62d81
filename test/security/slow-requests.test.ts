import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, newWorkspace, startTestApp, type TestApp } from '../helpers/test-app.js';

// The probe's finding: connections sending 1 byte every 10 s were held 330 s with no answer, on
// POST /console/v1/session, on /v1/apps with no credentials, and on uploads (no request timeout).

let test: TestApp;
let port: number;
const requestTimeoutMs = 2_000;

beforeAll(async () => {
  test = await startTestApp({ LECTERN_REQUEST_TIMEOUT_MS: String(requestTimeoutMs) });
  port = Number(new URL(await listen(test)).port);
});
afterAll(() => test.close());

type Trickle = { answer: Promise<{ text: string; closedAfterMs: number }>; socket: Socket };

/** Sends a request's headers at once, then its body one byte every `everyMs`, until the server ends it. */
function trickle(head: string, everyMs: number): Trickle {
  const socket = connect(port, '127.0.0.1');
  const started = performance.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write('x');
  }, everyMs);
  socket.write(head);
  const answer = new Promise<{ text: string; closedAfterMs: number }>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: performance.now() - started });
    }),
  );
  return { answer, socket };
}

const post = (path: string, headers: string[] = []) =>
  [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    'Content-Length: 10000',
    ...headers,
    '',
    '',
  ].join('\r\n');

describe('slow request bodies', () => {
  it('answers a trickled sign-in body 408 and closes the connection once the request time is up', async () => {
    const { answer } = trickle(post('/console/v1/session'), 200);
    const { text, closedAfterMs } = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(requestTimeoutMs - 100);
    // Node checks its connections every quarter of the headers' time (here the request's, 2 s).
    expect(closedAfterMs).toBeLessThan(requestTimeoutMs * 3);
  });

  it('refuses a request without credentials before its body and closes within a second', async () => {
    const { answer } = trickle(post('/v1/apps'), 200);
    const { text, closedAfterMs } = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text).toMatch(/connection: close/i);
    expect(text).toContain('Missing Authorization');
    expect(closedAfterMs).toBeLessThan(requestTimeoutMs);
  });

  it('refuses a bad key before an upload’s body the same way', async () => {
    const { answer } = trickle(post('/v1/files/upload', ['Authorization: Bearer lec_not_a_key']), 200);
    const { text, closedAfterMs } = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(closedAfterMs).toBeLessThan(requestTimeoutMs);
  });

  it('still answers a client that sends a large body at a normal rate with its own status', async () => {
    const client = await newWorkspace(test);
    const address = `http://127.0.0.1:${port}`;
    const refused = await fetch(`${address}/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer lec_wrong' },
      body: JSON.stringify({ name: 'x'.repeat(200_000) }),
    });
    expect(refused.status).toBe(401);
    const created = await fetch(`${address}/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${client.apiKey}` },
      body: JSON.stringify({ name: 'A normal app' }),
    });
    expect(created.status).toBe(201);
  });
});
