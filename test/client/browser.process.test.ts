import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { useConsole } from '../helpers/console-browser.js';
import { keyedCaller } from '../helpers/lectern-process.js';

// The built client in Chromium, as a web page loads it: its ES modules from packages/client/dist and
// LiquidJS's browser build (an import map names it), on the service's own origin. The Klu entry
// loads an Action, streams a run to the last word and posts feedback; the Lectern client renders a
// deployed prompt. Both pages are served by the test at the service's address (no CORS needed).
const apiKey = 'lec_client_browser_key_0123456789abcdefghij';
const harness = useConsole({ apiKey });
const call = keyedCaller(apiKey);
const root = path.resolve(import.meta.dirname, '../..');

const page = (key: string) => `<!doctype html>
<html lang="en"><head><title>client check</title>
<script type="importmap">{ "imports": { "liquidjs": "/client-check/liquid.browser.mjs" } }</script>
</head><body><main id="out">running</main>
<script type="module">
  import Klu from '/client-check/dist/klu.js';
  import { Lectern } from '/client-check/dist/index.js';
  const out = {};
  try {
    const klu = new Klu('${key}', { baseUrl: location.origin });
    const actions = await klu.apps.getActions(new URLSearchParams(location.search).get('app'));
    out.actions = actions.map((action) => action.name);
    const streamed = await klu.actions.stream(actions[0].guid, { text: 'every word of this sentence arrives' });
    const tokens = [];
    for await (const token of streamed.streamingData) tokens.push(token);
    out.text = tokens.join('');
    const feedback = await klu.feedback.create({ dataGuid: streamed.data_guid, type: 'rating', value: 'positive' });
    out.feedback = feedback.value;
    const lectern = new Lectern({ baseUrl: location.origin, apiKey: '${key}', prompts: { subscribe: false } });
    const prompt = await lectern.prompts.get(actions[0].guid);
    out.rendered = (await prompt.render({ text: 'from the browser' })).messages;
    try {
      await klu.actions.get('00000000-0000-4000-8000-000000000000');
    } catch (error) {
      out.missing = { name: error.constructor.name, status: error.status, code: error.code };
    }
  } catch (error) {
    out.error = String(error && error.stack || error);
  }
  document.getElementById('out').textContent = 'done';
  window.clientCheck = out;
</script></body></html>`;

it('runs the Klu entry and the prompt cache in Chromium: stream to the last word, feedback, render', async () => {
  const base = harness.server.baseUrl;
  const app = await call(base, 'POST', '/v1/apps', { name: 'browser' });
  await call(base, 'POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'Echo in the browser',
    model: 'mock/slow',
    prompt: '{{text}}',
  });
  const context = await harness.browser.newContext();
  const browserPage = await context.newPage();
  await browserPage.route(`${base}/client-check/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/client-check/page.html')
      return route.fulfill({ contentType: 'text/html', body: page(apiKey) });
    const file =
      url.pathname === '/client-check/liquid.browser.mjs'
        ? path.join(root, 'node_modules/liquidjs/dist/liquid.browser.mjs')
        : path.join(root, 'packages/client', url.pathname.replace('/client-check/', ''));
    return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
  });
  await browserPage.goto(`${base}/client-check/page.html?app=${app.body.guid}`);
  await browserPage.waitForFunction(() => (globalThis as any).clientCheck !== undefined, undefined, {
    timeout: 30_000,
  });
  const result = await browserPage.evaluate(() => (globalThis as any).clientCheck);
  expect(result.error).toBeUndefined();
  expect(result).toMatchObject({
    actions: ['Echo in the browser'],
    text: 'every word of this sentence arrives',
    feedback: 'positive',
    rendered: [{ role: 'user', content: 'from the browser' }],
    missing: { name: 'NotFoundError', status: 404, code: 'not_found' },
  });
  await context.close();
}, 60_000);
