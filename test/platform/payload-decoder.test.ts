import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPayloadDecoder } from '../../src/platform/payloads/payload-decoder.js';

// The same payloads decoded here (below the threshold) and on the worker thread (above it) give the
// same values and the same refusals.
const onThisThread = createPayloadDecoder({ offThreadBytes: Number.POSITIVE_INFINITY });
const onTheWorker = createPayloadDecoder({ offThreadBytes: 0 });
afterAll(async () => {
  await onThisThread.close();
  await onTheWorker.close();
});

const bothWays = async <T>(decode: (decoder: typeof onTheWorker) => Promise<T>) => {
  const results = await Promise.allSettled([decode(onThisThread), decode(onTheWorker)]);
  const [here, there] = results.map((result) =>
    result.status === 'fulfilled' ? { value: result.value } : { error: String(result.reason) },
  );
  expect(there).toEqual(here);
  return here!;
};

describe('the payload decoder', () => {
  it('parses JSON bodies alike on either thread, and refuses malformed and prototype-poisoning ones', async () => {
    const bodies = [
      '{"name":"é ✓ 😀","list":[1,2.5,null,true],"nested":{"deep":"x"}}',
      `{"data":"${randomBytes(300_000).toString('base64')}"}`,
      '{"broken":',
      '{"__proto__":{"admin":true}}',
      '{"\\u005f_proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '{"text":"a \\u0041 escape that hides nothing"}',
      '\ufeff{"after":"a byte order mark"}',
    ];
    const outcomes = [];
    for (const body of bodies)
      outcomes.push(await bothWays((decoder) => decoder.parseJson(Buffer.from(body))));
    expect(outcomes[0]).toEqual({ value: JSON.parse(bodies[0]!) });
    expect((outcomes[1] as { value: { data: string } }).value.data).toHaveLength(400_000);
    for (const refused of outcomes.slice(2, 6)) expect(refused).toHaveProperty('error');
    expect(outcomes[6]).toEqual({ value: { text: 'a A escape that hides nothing' } });
    expect(outcomes[7]).toEqual({ value: { after: 'a byte order mark' } });
  });

  it('decodes Base64 alike on either thread: both alphabets, line breaks, invalid text, over the limit', async () => {
    const bytes = randomBytes(200_000);
    const valid = [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('base64').replace(/(.{76})/g, '$1\r\n'),
    ];
    for (const text of valid) {
      const decoded = await bothWays((decoder) => decoder.decodeBase64(text, bytes.length));
      expect(Buffer.from((decoded as { value: { bytes: Uint8Array } }).value.bytes).equals(bytes)).toBe(true);
    }
    for (const text of ['AB*D', 'AA==AAAA', 'A===', 'abcde', 'QUJD\nRE*G']) {
      expect(await bothWays((decoder) => decoder.decodeBase64(text, 100))).toEqual({
        value: { problem: 'invalid' },
      });
    }
    expect(await bothWays((decoder) => decoder.decodeBase64(valid[0]!, bytes.length - 1))).toEqual({
      value: { problem: 'too_large' },
    });
  });

  it('answers every request sent at once, each with its own value', async () => {
    const values = Array.from({ length: 50 }, (_, index) => ({
      index,
      text: randomBytes(64).toString('hex'),
    }));
    const parsed = await Promise.all(
      values.map((value) => onTheWorker.parseJson(Buffer.from(JSON.stringify(value)))),
    );
    expect(parsed).toEqual(values);
  });
});
