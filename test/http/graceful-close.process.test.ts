import { connect, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { createTextAction, keyedCaller, serve } from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

const apiKey = 'lec_graceful_close_key_0123456789abcdefghij';
const processEnvironment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });
const call = keyedCaller(apiKey);

/** A TCP connection to the node, open once connected. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the node sends on `socket` until it ends the connection. */
function everythingSent(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

it('a stopping node answers a request sent on a connection it had accepted, and ends idle ones', async () => {
  const node = await serve(processEnvironment.values);
  const port = Number(new URL(node.baseUrl).port);
  const action = await createTextAction(call, node.baseUrl, {
    app: 'close',
    name: 'echo',
    model: 'mock/echo',
  });

  // A proxy's connection: accepted, its request not yet written when SIGTERM comes.
  const accepted = await open(port);
  const answer = everythingSent(accepted);
  // A keep-alive connection that has had its answer and sits idle: it is closed, not waited for.
  const idle = await open(port);
  const idleEnded = everythingSent(idle);
  idle.write('GET /healthz HTTP/1.1\r\nHost: lectern\r\nConnection: keep-alive\r\n\r\n');
  await eventually(async () => (idle.bytesRead > 0 ? true : undefined));

  const exited = node.stop();
  // Once the node refuses new connections (a proxy passes those to another node)…
  await eventually(
    () =>
      open(port).then(
        (socket) => void socket.destroy(),
        () => true,
      ),
    10_000,
  );
  // …the request written on the connection it had accepted is still run and answered, not refused
  // with a 503.
  const body = JSON.stringify({ input: { text: 'sent after the stop' } });
  accepted.write(
    `POST /v1/actions/${action}/prompt HTTP/1.1\r\nHost: lectern\r\nAuthorization: Bearer ${apiKey}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const response = await answer;
  expect(response).toMatch(/^HTTP\/1\.1 200 /);
  expect(response.toLowerCase()).toContain('connection: close');
  expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)).msg).toBe('sent after the stop');
  expect(await idleEnded).toMatch(/^HTTP\/1\.1 200 /);
  expect(await exited).toBe(0);
}, 60_000);
