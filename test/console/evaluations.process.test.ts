import { expect, it } from 'vitest';
import { expectAccessible, screenshot, useConsole } from '../helpers/console-browser.js';
import { keyedCaller } from '../helpers/lectern-process.js';
import { eventually } from '../helpers/test-app.js';

// The console's evaluation flows in Chromium: a matrix of two versions and its comparison, a run's
// page with live progress, filters and cancel, the deploy dialog's release gate, and the
// Dashboard's monitor scores.
const apiKey = 'lec_console_evaluations_key_0123456789abcdef';
const call = keyedCaller(apiKey);
const harness = useConsole({ apiKey, environment: { LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '1000' } });
const api = (method: string, path: string, body?: unknown) =>
  call(harness.server.baseUrl, method, path, body);

// mock/echo answers with its prompt: version 1 (`{{answer}}`) answers each item's `answer`,
// version 2 (`Paris`) answers "Paris" whatever the item: it fixes item 2 and breaks item 4.
const items = [
  { input: { answer: 'Paris' }, expected_output: 'Paris' },
  { input: { answer: 'Lyon' }, expected_output: 'Paris' },
  { input: { answer: 'Paris' }, expected_output: 'Paris' },
  { input: { answer: 'Nice' }, expected_output: 'Nice' },
];

async function capitalAction(evaluatorName: string) {
  const app = await api('POST', '/v1/apps', { name: 'Geography' });
  const action = await api('POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'Capital reply',
    model: 'mock/echo',
    prompt: '{{answer}}',
  });
  await api('PUT', `/v1/actions/${action.body.guid}`, { prompt: 'Paris' });
  const dataset = await api('POST', '/v1/datasets', { name: 'Capitals' });
  await api('POST', `/v1/datasets/${dataset.body.guid}/items`, { items });
  const exact = await api('POST', '/v1/evaluators', { name: evaluatorName, type: 'exact_match' });
  return {
    action: action.body.guid as string,
    dataset: dataset.body.guid as string,
    exact: exact.body.guid as string,
  };
}

it('evaluates two versions as a matrix and compares them side by side, regressions first', async () => {
  const { action } = await capitalAction('Exact');
  const page = await harness.signedInPage();
  await page.getByRole('link', { name: 'Evaluations' }).click();
  await page.getByRole('heading', { name: 'No evaluations yet' }).waitFor();
  await expectAccessible(page, 'evaluations (empty)');

  // Nothing chosen to score with: the service's reason under the form, and nothing started.
  const form = page.getByRole('form', { name: 'Start an evaluation' });
  await form.getByLabel('Action').selectOption({ label: 'Capital reply' });
  await form.getByLabel('Dataset').selectOption({ label: 'Capitals (v2, 4 items)' });
  await form.getByLabel(/v1/).check();
  await form.getByLabel(/v2/).check();
  await form.getByRole('button', { name: 'Evaluate 2 versions' }).click();
  await expect(form.getByRole('alert').textContent()).resolves.toMatch(/evaluators/);
  await form.getByLabel('Exact (exact_match)', { exact: true }).check();
  await form.getByRole('button', { name: 'Evaluate 2 versions' }).click();

  // The matrix opens the comparison of its two runs, which fills in as they finish.
  await page.getByRole('heading', { name: 'Compare' }).waitFor();
  const byEvaluator = page.getByRole('table', { name: 'Differences by evaluator' });
  await byEvaluator.getByRole('cell', { name: 'Exact' }).waitFor();
  const sideBySide = page.getByRole('table', { name: 'Items side by side' });
  await expect.poll(() => sideBySide.getByRole('row').count(), { timeout: 20_000 }).toBe(5);
  await page.getByText('Items, regressions first (1 regressed)').waitFor();
  // The regression first: item 4, "Nice" became "Paris", the changed words marked.
  const first = sideBySide.getByRole('row').nth(1);
  await expect(first.locator('del').textContent()).resolves.toBe('removed: Nice');
  await expect(first.locator('ins').textContent()).resolves.toBe('added: Paris');
  await expect(first.textContent()).resolves.toContain('1.000 → 0.000');
  await expectAccessible(page, 'evaluation compare');
  await screenshot(page, 'evaluation-compare');

  // The list: both runs, finished.
  await page.getByRole('link', { name: 'Evaluations', exact: true }).click();
  const runs = page.getByRole('table', { name: 'Evaluations' });
  await expect.poll(() => runs.getByText('SUCCESS').count()).toBe(2);
  await expectAccessible(page, 'evaluations');
  await screenshot(page, 'evaluations');
  await page.goBack();

  // One run's page: its summary and results, filtered to the items scored below 0.5.
  await page.getByRole('link', { name: /Capital reply v2/ }).click();
  await page.getByRole('table', { name: 'Summary' }).getByRole('cell', { name: '0.750' }).waitFor();
  const results = page.getByRole('table', { name: 'Results' });
  await expect.poll(() => results.getByRole('row').count()).toBe(5);
  await page.getByLabel('Evaluator').selectOption({ label: 'Exact' });
  await page.getByLabel('Score below').fill('0.5');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => results.getByRole('row').count()).toBe(2);
  await results.getByRole('cell', { name: '{"answer":"Nice"}' }).waitFor();
  await expectAccessible(page, 'evaluation');
  await screenshot(page, 'evaluation');
  // The generation behind a row opens in Generations.
  await results.getByRole('link', { name: 'Open' }).click();
  await page.getByRole('heading', { name: 'Generations' }).waitFor();
  await page.getByRole('dialog').waitFor();
  expect(action).toBeTruthy();
  await page.context().close();
}, 90_000);

it('shows a run’s progress live and cancels it', async () => {
  const app = await api('POST', '/v1/apps', { name: 'Slow' });
  // mock/slow sends a word every 50 ms: forty items one at a time take a while.
  const slow = await api('POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'Slow reply',
    model: 'mock/slow',
    prompt: 'one two three four five {{text}}',
  });
  const dataset = await api('POST', '/v1/datasets', { name: 'Forty' });
  await api('POST', `/v1/datasets/${dataset.body.guid}/items`, {
    items: Array.from({ length: 40 }, (_, index) => ({ input: { text: `item ${index}` } })),
  });
  const check = await api('POST', '/v1/evaluators', {
    name: 'Has item',
    type: 'contains',
    config: { value: 'item' },
  });
  const started = await api('POST', '/v1/evaluations', {
    action: slow.body.guid,
    dataset: dataset.body.guid,
    evaluators: [check.body.guid],
    concurrency: 1,
  });
  const page = await harness.signedInPage();
  await page.goto(`${harness.server.baseUrl}/evaluations/${started.body.guid}`);
  const bar = page.getByRole('progressbar');
  await bar.waitFor();
  // The bar moves as items finish (the page asks every second).
  await expect
    .poll(async () => Number(await bar.getAttribute('value')), { timeout: 20_000 })
    .toBeGreaterThan(1);
  await expectAccessible(page, 'evaluation (running)');
  await screenshot(page, 'evaluation-running');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByText('CANCELLED').first().waitFor();
  await expect(page.getByRole('progressbar').count()).resolves.toBe(0);
  await page.context().close();
}, 60_000);

it('shows the release gate in the deploy dialog: unmet conditions, evaluate now, and an admin’s forced deploy', async () => {
  const { action, dataset, exact } = await capitalAction('Exact gate');
  await api('PUT', `/v1/actions/${action}/gates/production`, {
    dataset,
    evaluators: [exact],
    min_mean: { [exact]: 0.8 },
  });
  const evaluation = await api('POST', '/v1/evaluations', {
    action,
    version: 2,
    dataset,
    evaluators: [exact],
  });
  await eventually(async () =>
    (await api('GET', `/v1/evaluations/${evaluation.body.guid}`)).body.status === 'SUCCESS'
      ? true
      : undefined,
  );
  const page = await harness.signedInPage();
  await page.goto(`${harness.server.baseUrl}/actions/${action}`);
  await page.getByRole('link', { name: 'Versions' }).click();
  await page.getByLabel('Version', { exact: true }).selectOption('2');
  await page.getByLabel('Environment').fill('production');
  const conditions = page.getByRole('list', { name: 'Release gate conditions' });
  await conditions.getByText('Exact gate: mean 0.75, needs at least 0.8').waitFor();
  await page.getByText('Release gate on production: not met').waitFor();
  await expectAccessible(page, 'deploy dialog (gate)');
  await screenshot(page, 'deploy-gate');

  // Refused: the reason by the form; an admin deploys anyway, and it runs in production.
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(
    /does not meet the release gate/,
  );
  await page.getByRole('button', { name: 'Deploy anyway' }).click();
  await page.getByText('Version 2 now runs in production (forced past the release gate).').waitFor();

  // Version 1 was never evaluated: the dialog offers to evaluate it, with the gate's choices set.
  await page.getByLabel('Version', { exact: true }).selectOption('1');
  await conditions.getByRole('link', { name: 'Evaluate this version now' }).click();
  const form = page.getByRole('form', { name: 'Start an evaluation' });
  // Set once the pickers' lists have loaded.
  await expect.poll(() => form.getByLabel('Action').inputValue()).toBe(action);
  await expect
    .poll(() => form.getByLabel('Exact gate (exact_match)', { exact: true }).isChecked())
    .toBe(true);
  await expect.poll(() => form.getByLabel(/v1/).isChecked()).toBe(true);
  await form.getByRole('button', { name: 'Evaluate' }).click();
  await page.getByRole('table', { name: 'Summary' }).waitFor();
  await page.context().close();
}, 60_000);

it('shows monitors’ daily mean scores on the Dashboard and links to the low-scored generations', async () => {
  const app = await api('POST', '/v1/apps', { name: 'Monitored' });
  const action = await api('POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'Monitored reply',
    model: 'mock/echo',
    prompt: '{{answer}}',
  });
  const startsWithP = await api('POST', '/v1/evaluators', {
    name: 'Starts with P',
    type: 'regex',
    config: { pattern: '^P' },
  });
  await api('POST', '/v1/monitors', {
    action: action.body.guid,
    evaluators: [startsWithP.body.guid],
    sample_rate: 1,
  });
  for (const answer of ['Paris', 'Lyon', 'Pau', 'Nice'])
    await api('POST', `/v1/actions/${action.body.guid}/prompt`, { input: { answer } });
  await eventually(async () => {
    const statistics = await api('GET', `/v1/statistics?action=${action.body.guid}`);
    return statistics.body.scores[0]?.n === 4 ? true : undefined;
  }, 20_000);
  const page = await harness.signedInPage();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('heading', { name: 'Monitor scores' }).waitFor();
  await page.getByRole('table', { name: /Monitor scores \(daily mean\)/ }).waitFor();
  await expectAccessible(page, 'dashboard (monitor scores)');
  await screenshot(page, 'dashboard-monitor-scores');
  await page.getByRole('link', { name: 'Starts with P: generations scored below 0.5' }).click();
  const generations = page.getByRole('table', { name: 'Generations' });
  await expect.poll(() => generations.getByRole('row').count()).toBe(3);
  await page.context().close();
}, 60_000);

it('works under its Content-Security-Policy: no page reported a violation', () => {
  expect(harness.policyViolations).toEqual([]);
});
