import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTextAction, keyedCaller, type ServingProcess, serve } from '../helpers/lectern-process.js';
import { useProcessEnvironment } from '../helpers/test-app.js';

// The console end to end: Debian's Chromium driven by playwright-core against `lectern serve`
// (dist/, a temporary data directory, the mock provider). Screenshots go to test-output/console/.
const apiKey = 'lec_console_test_key_0123456789abcdefghijklmn';
const processEnvironment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });
const call = keyedCaller(apiKey);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshots = 'test-output/console';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: ServingProcess;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `The console tests drive Chromium at ${chromiumPath}: install it (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  mkdirSync(screenshots, { recursive: true });
  server = await serve(processEnvironment.values);
  // Root in CI containers: Chromium's sandbox needs user namespaces it may not have there.
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** axe-core on the page as it stands: no serious or critical violation. */
async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run();
    return result.violations
      .filter((violation: { impact: string }) => ['serious', 'critical'].includes(violation.impact))
      .map((violation: { id: string; nodes: { target: string[] }[] }) => ({
        rule: violation.id,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
  });
  expect(violations, `${name}: ${JSON.stringify(violations)}`).toEqual([]);
}

it('signs in with a key, lists the Actions, and signs out', async () => {
  await createTextAction(call, server.baseUrl, { app: 'Support', name: 'Refund reply', model: 'mock/echo' });
  const context = await browser.newContext();
  const page = await context.newPage();

  await page.goto(`${server.baseUrl}/actions`);
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  await expectAccessible(page, 'sign-in');
  await page.screenshot({ path: path.join(screenshots, 'sign-in.png'), fullPage: true });

  // A wrong key: the service's message next to the field, and no session.
  await page.getByLabel('API key').fill('lec_wrong-key-0000000000000000000000000000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toContain('Invalid or revoked API key');

  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Actions' }).waitFor();
  await page.getByRole('cell', { name: /Refund reply/ }).waitFor();
  await expect(page.getByRole('cell', { name: 'Support' }).count()).resolves.toBe(1);
  await expectAccessible(page, 'actions');
  await page.screenshot({ path: path.join(screenshots, 'actions.png'), fullPage: true });

  // The browser holds a session cookie that scripts cannot read, and no key anywhere.
  const [cookie] = await context.cookies();
  expect(cookie).toMatchObject({ name: 'lectern_session', httpOnly: true, sameSite: 'Strict' });
  expect(cookie!.value).not.toContain(apiKey);
  const stored = await page.evaluate(() => {
    // In the page: the tests compile without the DOM's types.
    const page = globalThis as any;
    return JSON.stringify({ ...page.localStorage, ...page.sessionStorage }) + page.document.cookie;
  });
  expect(stored).not.toContain(apiKey);
  expect(stored).not.toContain('lectern_session');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  const status = await page.evaluate(async () => (await fetch('/v1/apps')).status);
  expect(status).toBe(401);
  await context.close();
}, 60_000);
