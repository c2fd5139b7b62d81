import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  atAddress,
  createAction,
  eventually,
  listen,
  parseEvents,
  useTestWorkspace,
} from '../helpers/test-app.js';

const context = useTestWorkspace();
let address: string;

beforeAll(async () => {
  address = await listen(context.test);
});

async function startStream(fields: Record<string, unknown>, input: unknown = { name: 'stream me now' }) {
  const action = await createAction(context.client, fields);
  const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input, streaming: true });
  expect(response.status).toBe(200);
  return { action, response: response.body, url: atAddress(response.body.streaming_url, address) };
}

function tokensOf(body: string): string[] {
  return parseEvents(body)
    .filter((event) => event.data.startsWith('{'))
    .map((event) => JSON.parse(event.data).token);
}

describe('streaming runs', () => {
  it('answers with a one-time URL and streams BEGIN_STREAM, tokens, END_STREAM; the record holds the text', async () => {
    const { response, url } = await startStream({});
    expect(response).toMatchObject({ msg: '', streaming: true, data_guid: expect.any(String) });
    expect(response.full_prompt_sent).toEqual([{ role: 'user', content: 'Hello stream me now' }]);
    expect(response.streaming_url).toMatch(
      new RegExp(`^http://lectern\\.test/api/streamByURL\\?guid=${response.data_guid}&token=`),
    );
    expect(response.feedback_url).toBe(`http://lectern.test/v1/feedback/${response.data_guid}`);

    const stream = await fetch(url);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseEvents(await stream.text());
    expect(events[0]).toEqual({ id: '0', data: 'BEGIN_STREAM' });
    expect(events.at(-1)).toEqual({ id: '5', data: 'END_STREAM' });
    // mock/echo's four word tokens: those ready together leave merged, with the last one's number as id.
    const ids = events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.at(-2)?.id).toBe('4');
    const tokens = tokensOf(events.map((event) => `data: ${event.data}\n\n`).join(''));
    expect(tokens.join('')).toBe('Hello stream me now');

    const record = await context.client.get(`/v1/data/${response.data_guid}`);
    expect(record.body.output).toBe(tokens.join(''));
    expect(record.body.source).toBe('stream');
  });

  it('lets exactly one of two concurrent consumers read; later ones get 410, forged tokens 401', async () => {
    const { url, response } = await startStream({ model: 'mock/slow' });
    const [first, second] = await Promise.all([fetch(url), fetch(url)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 410]);
    const loser = first.status === 410 ? first : second;
    expect(((await loser.json()) as any).message).toBe('stream has been consumed');
    const winner = first.status === 200 ? first : second;
    expect(tokensOf(await winner.text()).join('')).toBe('Hello stream me now');

    const again = await fetch(url);
    expect(again.status).toBe(410);
    const otherGuid = await fetch(url.replace(response.data_guid, '00000000-0000-4000-8000-000000000000'));
    expect(otherGuid.status).toBe(401);
    const forged = await fetch(url.replace(/token=[^&]+/, 'token=1.abc'));
    expect(forged.status).toBe(401);
  });

  it('answers No data found in cache for an expired token or a stream this node never had', async () => {
    const signer = context.test.platform.signer;
    const guid = '00000000-0000-4000-8000-000000000001';
    const expired = signer.sign('stream', guid, Date.now() - 1000);
    const gone = await fetch(`${address}/api/streamByURL?guid=${guid}&token=${encodeURIComponent(expired)}`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as any).message).toBe('No data found in cache');
    const valid = signer.sign('stream', guid, Date.now() + 60_000);
    const unknown = await fetch(`${address}/api/streamByURL?guid=${guid}&token=${encodeURIComponent(valid)}`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).message).toBe('No data found in cache');
  });

  it('replays every token from the first to a consumer that comes after the generation ended', async () => {
    const { url, response } = await startStream({}, { name: 'late reader gets everything' });
    await eventually(async () => {
      const record = await context.client.get(`/v1/data/${response.data_guid}`);
      return record.status === 200 ? true : undefined;
    });
    const body = await (await fetch(url)).text();
    expect(tokensOf(body).join('')).toBe('Hello late reader gets everything');
    expect(body.endsWith('data: END_STREAM\n\n')).toBe(true);
  });

  it('sends event: error when the provider fails, and stores nothing', async () => {
    const { url, response } = await startStream({ model: 'mock/error' });
    const events = parseEvents(await (await fetch(url)).text());
    expect(events[0]).toEqual({ id: '0', data: 'BEGIN_STREAM' });
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)!.data).message).toMatch(/unavailable/);
    expect((await context.client.get(`/v1/data/${response.data_guid}`)).status).toBe(404);
  });

  it('keeps generating after the client disconnects and stores the full output', async () => {
    const words = Array.from({ length: 30 }, (_, index) => `w${index}`).join(' ');
    const { url, response } = await startStream({ model: 'mock/slow', prompt: '{{text}}' }, { text: words });
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest(url, (stream) => {
        let received = '';
        stream.on('data', (chunk) => {
          received += chunk;
          if (received.includes('"token"')) {
            request.destroy();
            resolve();
          }
        });
      });
      request.on('error', (error) => (request.destroyed ? resolve() : reject(error)));
      request.end();
    });
    const record = await eventually(async () => {
      const found = await context.client.get(`/v1/data/${response.data_guid}`);
      return found.status === 200 ? found.body : undefined;
    });
    expect(record.output).toBe(words);
  });

  it('prefers streaming when async_mode is also set', async () => {
    const action = await createAction(context.client);
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { name: 'both' },
      streaming: true,
      async_mode: true,
    });
    expect(response.body.streaming).toBe(true);
    expect(response.body.result_url).toBeUndefined();
    await fetch(atAddress(response.body.streaming_url, address)).then((stream) => stream.text());
  });
});

/** Reads a stream until `enough` holds for what arrived, then cuts the connection. */
function readThenCut(url: string, enough: (received: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const request = httpRequest(url, (stream) => {
      stream.on('data', (chunk) => {
        received += chunk;
        if (enough(received)) {
          request.destroy();
          resolve(received);
        }
      });
    });
    request.on('error', (error) => (request.destroyed ? resolve(received) : reject(error)));
    request.end();
  });
}

const lastIdOf = (body: string) => parseEvents(body).at(-1)!.id!;

describe('reconnecting with Last-Event-ID', () => {
  it('resumes a cut stream after the last event the client had, through END_STREAM, without BEGIN_STREAM', async () => {
    const words = Array.from({ length: 12 }, (_, index) => `r${index}`).join(' ');
    const { url, response } = await startStream({ model: 'mock/slow', prompt: '{{text}}' }, { text: words });
    const before = await readThenCut(url, (received) => (received.match(/"token"/g) ?? []).length >= 2);
    const resumed = await fetch(url, { headers: { 'last-event-id': lastIdOf(before) } });
    expect(resumed.status).toBe(200);
    const after = parseEvents(await resumed.text());
    expect(after[0]?.data).not.toBe('BEGIN_STREAM');
    expect(after.at(-1)).toMatchObject({ data: 'END_STREAM' });
    expect(Number(after[0]!.id)).toBe(Number(lastIdOf(before)) + 1);
    expect(
      tokensOf(before).join('') + tokensOf(after.map((event) => `data: ${event.data}\n\n`).join('')).join(''),
    ).toBe(words);
    const record = await eventually(async () => {
      const found = await context.client.get(`/v1/data/${response.data_guid}`);
      return found.status === 200 ? found.body : undefined;
    });
    expect(record.output).toBe(words);
  });

  it('sends END_STREAM again to a client that reconnects after it, and 410 to one without Last-Event-ID', async () => {
    const { url } = await startStream({});
    const whole = await (await fetch(url)).text();
    const endId = lastIdOf(whole);
    const again = await fetch(url, { headers: { 'last-event-id': endId } });
    expect(parseEvents(await again.text())).toEqual([{ id: endId, data: 'END_STREAM' }]);
    const reuse = await fetch(url);
    expect(reuse.status).toBe(410);
    expect(((await reuse.json()) as any).message).toBe('stream has been consumed');
    const otherStream = await fetch(url.replace(/guid=[^&]+/, 'guid=00000000-0000-4000-8000-000000000002'), {
      headers: { 'last-event-id': '3' },
    });
    expect(otherStream.status).toBe(401);
  });

  it('refuses a Last-Event-ID that is not one of the stream’s event ids with 400 naming it', async () => {
    const { url } = await startStream({});
    const refused = await fetch(url, { headers: { 'last-event-id': 'abc' } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).message).toMatch(/last-event-id/);
    // Nothing was claimed by the refused request.
    expect((await fetch(url)).status).toBe(200);
  });
});

describe('streamed tool calls and timeouts', () => {
  it('streams a tool-call answer as the JSON the record stores', async () => {
    const tools = [
      { name: 'lookup', parameters: { type: 'object', properties: { input: { type: 'string' } } } },
    ];
    const { url, response } = await startStream(
      { model: 'mock/tool', prompt: '{{q}}', tools },
      { q: 'kiwi' },
    );
    const body = await (await fetch(url)).text();
    const tokens = parseEvents(body)
      .filter((event) => event.data.startsWith('{'))
      .map((event) => JSON.parse(event.data).token);
    const record = await context.client.get(`/v1/data/${response.data_guid}`);
    expect(tokens.join('')).toBe(record.body.output);
    expect(JSON.parse(record.body.output).tool_calls[0].function).toEqual({
      name: 'lookup',
      arguments: '{"input":"kiwi"}',
    });
  });

  it('fails a model call that outlives model_config.timeout', async () => {
    const action = await createAction(context.client, {
      model: 'mock/slow',
      prompt: '{{text}}',
      model_config: { timeout: 0.1, num_retries: 0 },
    });
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { text: 'this takes far longer than a tenth of a second' },
    });
    expect(response.status).toBe(504);
    expect(response.body.message).toBe('mock did not answer in time');
  });
});
