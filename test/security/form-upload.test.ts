import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestWorkspace } from '../helpers/test-app.js';

// A presigned upload form is checked by its fields, which come before its file: a forged form is
// refused before the file is read, so nobody can make the service buffer a large body for nothing.
const context = useTestWorkspace();
let address: string;
beforeAll(async () => {
  address = await listen(context.test);
});

describe('the presigned upload form', () => {
  it('refuses a forged form while its file is still arriving', async () => {
    const boundary = 'lectern-test-boundary';
    const head = [
      `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nsome-workspace/some-file\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\nforged\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n`,
      'Content-Type: application/octet-stream\r\n\r\n',
    ].join('');
    const url = new URL(`${address}/v1/files/form-upload`);
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const outgoing = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode, body }));
        },
      );
      outgoing.on('error', reject);
      // The fields and the first 64 KiB of a file that never ends: the answer cannot wait for it.
      outgoing.write(head);
      outgoing.write(Buffer.alloc(64 * 1024, 1));
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toBe('Invalid upload form signature');
  }, 15_000);
});
