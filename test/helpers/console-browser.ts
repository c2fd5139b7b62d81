import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, onTestFailed } from 'vitest';
import { type ServingProcess, serve } from './lectern-process.js';
import { useProcessEnvironment } from './test-app.js';

// The console end to end: Debian's Chromium driven by playwright-core against `lectern serve`
// (dist/, a temporary data directory, the mock provider). Screenshots go to test-output/console/.

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshots = 'test-output/console';
// `LECTERN_README_SCREENSHOTS=1` also writes the README's pictures (docs/images) from this run.
const readmeScreenshots = process.env.LECTERN_README_SCREENSHOTS === '1' ? 'docs/images' : undefined;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A full-page screenshot of the flow; the README's own pictures are refreshed when asked. */
export async function screenshot(page: Page, name: string, forReadme = false): Promise<void> {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
  if (forReadme && readmeScreenshots)
    await page.screenshot({ path: path.join(readmeScreenshots, `${name}.png`) });
}

/** axe-core on the page as it stands: no serious or critical violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol: the console's CSP refuses inline scripts, as it should.
  await page.evaluate(axeSource);
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

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export type ConsoleHarness = {
  readonly server: ServingProcess;
  readonly browser: Browser;
  /** Every Content-Security-Policy violation a page of the console reported (Chromium logs each). */
  readonly policyViolations: string[];
  /** A browser context whose pages' CSP violations are collected. */
  watchedContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>;
  /** A page signed in with the key, on the Actions page; a failed test leaves its screenshot. */
  signedInPage(): Promise<Page>;
};

/**
 * A test file's console: `lectern serve` on a port chosen first (so `beforeServe` can hand it to
 * another system, an identity provider, and give the environment that names it), and Chromium.
 */
export function useConsole(options: {
  apiKey: string;
  environment?: Record<string, string>;
  beforeServe?: (baseUrl: string) => Promise<Record<string, string>>;
  afterStop?: () => Promise<unknown>;
}): ConsoleHarness {
  const processEnvironment = useProcessEnvironment({
    LECTERN_INIT_API_KEY: options.apiKey,
    ...options.environment,
  });
  let server: ServingProcess;
  let browser: Browser;
  const policyViolations: string[] = [];

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `The console tests drive Chromium at ${chromiumPath}: install it (apt-get install chromium) or set CHROMIUM_PATH`,
      );
    }
    mkdirSync(screenshots, { recursive: true });
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const extra = (await options.beforeServe?.(baseUrl)) ?? {};
    server = await serve({
      ...processEnvironment.values,
      PORT: String(port),
      LECTERN_BASE_URL: baseUrl,
      ...extra,
    });
    // Root in CI containers: Chromium's sandbox needs user namespaces it may not have there.
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await options.afterStop?.();
  });

  async function watchedContext(contextOptions: Parameters<Browser['newContext']>[0] = {}) {
    const context = await browser.newContext(contextOptions);
    // Where each violation came from (Chromium's own message names the directive, not the file).
    await context.addInitScript(() => {
      const page = globalThis as any;
      page.document.addEventListener('securitypolicyviolation', (event: any) =>
        console.error(
          `Content Security Policy: ${event.violatedDirective} at ${event.sourceFile}:${event.lineNumber} on ${page.location.href}`,
        ),
      );
    });
    context.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) policyViolations.push(message.text());
    });
    return context;
  }

  return {
    get server() {
      return server;
    },
    get browser() {
      return browser;
    },
    policyViolations,
    watchedContext,
    async signedInPage() {
      const context = await watchedContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      // What the page showed when a step failed is the quickest way to see why.
      onTestFailed(async ({ task }) => {
        // A server that died says why only in its own output.
        if (server.child.exitCode !== null || server.child.signalCode !== null) {
          console.error(
            `lectern serve exited (${server.child.exitCode ?? server.child.signalCode}):\n${server.output().slice(-6000)}`,
          );
        }
        const name = task.name.replace(/\W+/g, '-').slice(0, 60);
        await page
          .screenshot({ path: path.join(screenshots, `failed-${name}.png`), fullPage: true })
          .catch(() => undefined);
      });
      await page.goto(`${server.baseUrl}/actions`);
      await page.getByRole('button', { name: 'Use an API key instead' }).click();
      await page.getByLabel('API key').fill(options.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Actions', exact: true }).waitFor();
      return page;
    },
  };
}
