import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectAccessible, screenshot, useConsole } from '../helpers/console-browser.js';
import { keyedCaller } from '../helpers/lectern-process.js';
import { eventually } from '../helpers/test-app.js';

// Settings → Webhooks in Chromium: a refused URL named next to its field, a new webhook's secret
// shown once, a test event sent to a live receiver, the deliveries log and a redelivery.
const apiKey = 'lec_console_webhooks_key_0123456789abcdefgh';
const call = keyedCaller(apiKey);
const harness = useConsole({
  apiKey,
  environment: { LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '1000', LECTERN_OUTBOUND_ALLOW: '127.0.0.1' },
});

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(204).end();
  });
});
let receiverUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/lectern`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

it('adds a webhook, shows its secret once, sends a test event, and lists and redelivers its deliveries', async () => {
  const page = await harness.signedInPage();
  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Webhooks' });
  await section.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
  await expectAccessible(page, 'settings (webhooks, empty)');

  // A URL with credentials is refused next to the field; nothing is made.
  await section.getByLabel('Receiver URL').fill('https://user:secret@example.com/hook');
  await section.getByRole('button', { name: 'Add webhook' }).click();
  await section.locator('.field-error', { hasText: 'must not carry credentials' }).waitFor();
  expect((await call(harness.server.baseUrl, 'GET', '/v1/webhooks')).body.data).toEqual([]);

  await section.getByLabel('Receiver URL').fill(receiverUrl);
  await section.getByLabel('All events').uncheck();
  await section.getByLabel('action.deployed').check();
  await section.getByLabel('deployment.refused').check();
  await section.getByRole('button', { name: 'Add webhook' }).click();
  const secret = await section.locator('code.secret').textContent();
  expect(secret).toMatch(/^whsec_/);
  await section.getByRole('cell', { name: 'action.deployed, deployment.refused' }).waitFor();
  await screenshot(page, 'webhooks');
  await section.getByRole('button', { name: 'Done' }).click();
  expect(await section.locator('code.secret').count()).toBe(0);

  await section.getByRole('button', { name: 'Send test event' }).click();
  await section.getByText('Test event queued.').waitFor();
  const first = await eventually(async () => received[0]);
  expect(JSON.parse(first.body).type).toBe('webhook.test');

  await section.getByRole('button', { name: 'Deliveries' }).click();
  const drawer = page.getByRole('dialog', { name: `Deliveries to ${receiverUrl}` });
  await drawer.getByText('succeeded').waitFor();
  await expectAccessible(page, 'webhook deliveries');
  await drawer.getByRole('button', { name: /^Redeliver webhook.test/ }).click();
  const second = await eventually(async () => received[1]);
  expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
  await screenshot(page, 'webhook-deliveries');
  await page.keyboard.press('Escape');
  await expect(drawer.count()).resolves.toBe(0);
  await page.context().close();
}, 60_000);
