import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { Lectern, ServerSentEventParser, StreamError } from '@lectern/client';
import { Klu } from '@lectern/client/klu';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAction, useTestWorkspace } from '../helpers/test-app.js';

// The client's SSE parser and stream reader: every event of a read is yielded (the official SDK
// keeps only the first), whatever pieces the socket cuts the bytes into, and a broken connection is
// resumed with Last-Event-ID.

type Sent = { event?: string; id?: string; data: string };

function serialise(event: Sent, lineEnd: string): string {
  const lines = [
    ...(event.event ? [`event: ${event.event}`] : []),
    ...(event.id !== undefined ? [`id: ${event.id}`] : []),
    ...event.data.split('\n').map((line) => `data: ${line}`),
  ];
  return `${lines.join(lineEnd)}${lineEnd}${lineEnd}`;
}

describe('ServerSentEventParser', () => {
  it('reads every event however the bytes are cut, with any line ending, comments and multi-line data', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ' ', ':', '\n', 'x') });
    const sent = fc.record({
      event: fc.option(fc.constantFrom('message', 'error', 'update'), { nil: undefined }),
      id: fc.option(fc.stringMatching(/^[0-9a-z]{1,6}$/), { nil: undefined }),
      data: text,
    });
    fc.assert(
      fc.property(
        fc.array(sent, { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 20 }),
        (events, lineEnd, cuts) => {
          const bytes = new TextEncoder().encode(
            `: a comment first${lineEnd}${events.map((event) => serialise(event, lineEnd)).join('')}`,
          );
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          const parser = new ServerSentEventParser();
          const received = [];
          let start = 0;
          for (const point of [...points, bytes.length]) {
            received.push(...parser.push(bytes.slice(start, point)));
            start = point;
          }
          let lastId: string | undefined;
          const expected = events.map((event) => {
            if (event.id !== undefined) lastId = event.id;
            return { event: event.event ?? 'message', data: event.data, id: lastId };
          });
          expect(received).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drops one space after the colon only, and dispatches nothing for an event without data', () => {
    const parser = new ServerSentEventParser();
    expect(parser.push('data:  two spaces\n\nid: 7\n\ndata:none\n\n')).toEqual([
      { event: 'message', data: ' two spaces', id: undefined },
      { event: 'message', data: 'none', id: '7' },
    ]);
  });
});

/** A local server that writes a whole stream of `words` in one write: no pacing at all. */
function oneWrite(response: ServerResponse, words: string[], firstId = 0) {
  const events = [
    ...(firstId === 0 ? ['id: 0\ndata: BEGIN_STREAM\n\n'] : []),
    ...words.map((word, index) => `id: ${firstId + index + 1}\ndata: ${JSON.stringify({ token: word })}\n\n`),
    `id: ${firstId + words.length + 1}\ndata: END_STREAM\n\n`,
  ];
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(events.join(''));
}

describe('streams against servers that do not pace', () => {
  let server: Server;
  let address: string;
  const words = Array.from({ length: 40 }, (_, index) => `word${index} `);
  const reconnects: Array<string | undefined> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/v1/actions/') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ msg: '', data_guid: 'g', streaming_url: `${address}/stream/whole` }));
      } else if (request.url === '/stream/whole') {
        oneWrite(response, words);
      } else if (request.url === '/stream/cut') {
        // The first connection breaks after word 10; a reconnect must say where it was.
        const lastEventId = request.headers['last-event-id'] as string | undefined;
        reconnects.push(lastEventId);
        if (lastEventId === undefined) {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          const first = [
            'id: 0\ndata: BEGIN_STREAM\n\n',
            ...words
              .slice(0, 10)
              .map((word, index) => `id: ${index + 1}\ndata: ${JSON.stringify({ token: word })}\n\n`),
          ];
          response.write(first.join(''), () => response.destroy());
        } else {
          oneWrite(response, words.slice(Number(lastEventId)), Number(lastEventId));
        }
      } else if (request.url === '/stream/failed') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(
          'id: 0\ndata: BEGIN_STREAM\n\nid: 1\ndata: {"token":"half"}\n\nevent: error\nid: 2\ndata: {"message":"provider said no"}\n\n',
        );
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    address = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('yields all 40 tokens sent in one write (the official SDK keeps one per read)', async () => {
    const klu = new Klu('key', { baseUrl: address });
    const streamed = await klu.actions.stream('action', 'hi');
    const tokens: string[] = [];
    for await (const token of streamed.streamingData) tokens.push(token!);
    expect(tokens).toEqual(words);
  });

  it('resumes a broken stream with Last-Event-ID and loses nothing', async () => {
    const tokens: string[] = [];
    for await (const token of new Lectern({ baseUrl: address }).streamTokens(`${address}/stream/cut`))
      tokens.push(token);
    expect(tokens.join('')).toBe(words.join(''));
    expect(reconnects).toEqual([undefined, '10']);
  });

  it('throws a failed generation’s error event with the service’s message', async () => {
    const tokens: string[] = [];
    const reading = (async () => {
      for await (const token of new Lectern({ baseUrl: address }).streamTokens(`${address}/stream/failed`))
        tokens.push(token);
    })();
    await expect(reading).rejects.toThrow(StreamError);
    await expect(reading).rejects.toThrow('provider said no');
    expect(tokens).toEqual(['half']);
  });
});

describe('a Lectern stream cut by the network', () => {
  const lectern = useTestWorkspace();
  let proxy: TcpServer;
  let proxyAddress: string;
  let cuts = 0;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    const target = new URL(await lectern.test.app.listen({ port: 0, host: '127.0.0.1' }));
    // Forwards each connection; the first stream connection is cut once it has carried a token
    // event while the generation still runs (a client that comes late is sent the tokens made so
    // far merged in one event, so no particular id is sure to be sent).
    proxy = createTcpServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      }
      client.pipe(upstream);
      let seen = '';
      let cut = false;
      upstream.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        const midStream =
          seen.includes('text/event-stream') && /\nid: [1-9]\d*\n/.test(seen) && !seen.includes('END_STREAM');
        if (!cut && cuts === 0 && midStream) {
          cut = true;
          cuts += 1;
          client.write(chunk, () => {
            client.destroy();
            upstream.destroy();
          });
          return;
        }
        client.write(chunk);
      });
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyAddress = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  // The client keeps its connection to the proxy alive: end them, or close waits for them.
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => proxy.close(resolve));
  });

  it('is resumed through Lectern’s Last-Event-ID window: the text arrives whole', async () => {
    const action = await createAction(lectern.client, { model: 'mock/slow', prompt: '{{text}}' });
    // 40 tokens of the slow mock model: two seconds of streaming, so the client is there mid-stream
    // even on a busy machine.
    const text = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    const client = new Lectern({ baseUrl: proxyAddress, apiKey: lectern.client.apiKey });
    const run = await client.request('POST /v1/actions/{guidOrSlug}/prompt', {
      path: { guidOrSlug: action.guid },
      body: { input: { text }, streaming: true },
    });
    // Stream URLs name LECTERN_BASE_URL (http://lectern.test in tests): read this one through the proxy.
    const streamingUrl = (run as { streaming_url: string }).streaming_url.replace(
      'http://lectern.test',
      proxyAddress,
    );
    let received = '';
    for await (const token of client.streamTokens(streamingUrl)) received += token;
    expect(received).toBe(text);
    expect(cuts).toBe(1);
  });
});
