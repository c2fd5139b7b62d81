import { describe, expect, it } from 'vitest';
import { buildDocx, buildPdf } from '../helpers/documents.js';
import { request, useTestWorkspace } from '../helpers/test-app.js';

const limit = 4096;
const context = useTestWorkspace({ LECTERN_FILE_LIMIT_BYTES: String(limit) });

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const jpeg = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
]);
const webp = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(14),
]);

async function upload(data: string) {
  return context.client.post('/v1/files/upload', { data });
}

/** The path and query of a returned URL (LECTERN_BASE_URL is http://lectern.test in tests). */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function download(url: string) {
  return context.test.app.inject({ method: 'GET', url: pathOf(url) });
}

describe('file upload', () => {
  it('stores Base64 and data URLs and serves the bytes with their type through a signed URL', async () => {
    const cases: Array<[Buffer, string]> = [
      [buildPdf(['A page']), 'application/pdf'],
      [png, 'image/png'],
      [gif, 'image/gif'],
      [jpeg, 'image/jpeg'],
      [webp, 'image/webp'],
      [buildDocx(['A paragraph']), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [Buffer.from('Just some plain text.'), 'text/plain; charset=utf-8'],
      [Buffer.from('# Title\n\n- a list item'), 'text/markdown; charset=utf-8'],
      [Buffer.from('<!DOCTYPE html><html><body>Hi</body></html>'), 'text/html; charset=utf-8'],
      [Buffer.from([0x00, 0x9f, 0x92, 0x96, 0xff, 0x00, 0x13]), 'image/png'],
    ];
    for (const [bytes, type] of cases) {
      const answer = await upload(bytes.toString('base64'));
      expect(answer.status).toBe(200);
      expect(answer.body.url).toMatch(/^http:\/\/lectern\.test\/v1\/files\/[0-9a-f-]{36}\?token=/);
      const fetched = await download(answer.body.url);
      expect(fetched.statusCode, type).toBe(200);
      expect(fetched.headers['content-type']).toBe(type);
      expect(fetched.rawPayload.equals(bytes)).toBe(true);
    }
    const dataUrl = await upload(
      `data:text/markdown;base64,${Buffer.from('plain words').toString('base64')}`,
    );
    expect((await download(dataUrl.body.url)).headers['content-type']).toBe('text/markdown; charset=utf-8');
    // MIME-style line breaks and the URL-safe alphabet decode to the same bytes.
    const awkward = Buffer.from([0xfb, 0xff, 0xbf, 0x3e, 0x3f, 0xfa, 0x01, 0x02, 0x03]);
    const urlSafe = awkward.toString('base64url').replace(/(.{4})/g, '$1\r\n');
    expect(urlSafe).toMatch(/[-_]/);
    const wrapped = await upload(urlSafe);
    expect(wrapped.status).toBe(200);
    expect((await download(wrapped.body.url)).rawPayload.equals(awkward)).toBe(true);
    const html = await download(
      (await upload(Buffer.from('<html><script>alert(1)</script></html>').toString('base64'))).body.url,
    );
    expect(html.headers['content-security-policy']).toContain('sandbox');
    expect(html.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses invalid Base64 with a 400 and files over the limit with a 413, storing nothing', async () => {
    // A character outside Base64 (alone or beside line breaks), padding inside the data or too much of it.
    const invalid = [
      'not base64!',
      'abcde',
      'data:text/plain,hello',
      '@@@@',
      'AB*D',
      'QUJD\nRE*G',
      'AA==AAAA',
      'A===',
    ];
    for (const data of invalid) {
      const answer = await upload(data);
      expect(answer.status, data).toBe(400);
      expect(answer.body.message).toMatch(/data/);
    }
    expect((await context.client.post('/v1/files/upload', {})).status).toBe(400);
    expect((await context.client.post('/v1/files/upload', { data: 'aGk=', name: 'x' })).status).toBe(400);
    const tooLarge = await upload(Buffer.alloc(limit + 1, 1).toString('base64'));
    expect(tooLarge.status).toBe(413);
    expect((await upload(Buffer.alloc(limit, 1).toString('base64'))).status).toBe(200);
    const unauthenticated = await request(context.test.app, 'POST', '/v1/files/upload', { data: 'aGk=' });
    expect(unauthenticated.status).toBe(401);
  });

  it('answers 403 to a tampered or expired signed URL', async () => {
    const { body } = await upload(Buffer.from('secret text').toString('base64'));
    const url = new URL(body.url);
    const guid = url.pathname.split('/').at(-1)!;
    const token = url.searchParams.get('token')!;
    const [expiresAt, signature] = token.split('.');
    // Two other last characters (a signature may end in "AA" itself: then "AA" would change nothing).
    const changedEnd = signature!.endsWith('AA') ? 'BB' : 'AA';
    const tampered = [
      `/v1/files/${guid}?token=${expiresAt}.${signature!.slice(0, -2)}${changedEnd}`,
      `/v1/files/${guid}?token=${Number(expiresAt) + 60_000}.${signature}`,
      `/v1/files/00000000-0000-4000-8000-000000000000?token=${token}`,
      `/v1/files/${guid}?token=garbage`,
    ];
    for (const path of tampered) {
      expect((await context.test.app.inject({ method: 'GET', url: path })).statusCode, path).toBe(403);
    }
    const expired = context.test.platform.signer.sign('file', guid, Date.now() - 1);
    const answer = await context.test.app.inject({
      method: 'GET',
      url: `/v1/files/${guid}?token=${expired}`,
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toMatch(/expired/);
    expect((await context.test.app.inject({ method: 'GET', url: `/v1/files/${guid}` })).statusCode).toBe(400);
    const valid = await download(body.url);
    expect(valid.body).toBe('secret text');
  });
});
