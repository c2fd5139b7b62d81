import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { expectAccessible, screenshot, useConsole } from '../helpers/console-browser.js';
import { keyedCaller } from '../helpers/lectern-process.js';
import { eventually } from '../helpers/test-app.js';

// The console's Review area in Chromium: a queue made in the form and filled by a rule, two
// reviewers who see nothing but the queue and review from the keyboard alone, the agreement table,
// and a correction that becomes a dataset item.
const apiKey = 'lec_console_review_key_0123456789abcdefghij';
const call = keyedCaller(apiKey);
const harness = useConsole({ apiKey, environment: { LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '1000' } });
const api = (method: string, path: string, body?: unknown) =>
  call(harness.server.baseUrl, method, path, body);

/** A reviewer invited by the API, who joins from the link in a browser of their own. */
async function reviewerPage(name: string): Promise<Page> {
  const invited = await api('POST', '/v1/members', {
    email: `${name.toLowerCase()}@example.com`,
    role: 'reviewer',
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const context = await harness.watchedContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(invited.body.invite_url.replace(/^http:\/\/[^/]+/, harness.server.baseUrl));
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(`a long password of ${name}`);
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.getByRole('heading', { name: 'Review', exact: true }).waitFor();
  return page;
}

/** Answers the current item from the keyboard: the keys given, then Enter. */
async function reviewWithKeys(page: Page, keys: string[]): Promise<void> {
  const before = await page.getByText(/Reviewed this session: \d+/).textContent();
  for (const key of keys) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByText(/Reviewed this session: \d+/).textContent()).not.toBe(before);
}

it('fills a queue by a rule and has two reviewers review it from the keyboard, agreement and corrections after', async () => {
  const app = await api('POST', '/v1/apps', { name: 'Support' });
  const action = await api('POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'Refund reply',
    model: 'mock/echo',
    prompt: '{{question}}',
  });
  const dataset = await api('POST', '/v1/datasets', { name: 'Corrections' });
  const ada = await reviewerPage('Ada');
  const bo = await reviewerPage('Bo');
  // A reviewer with no queue sees an empty Review area and no other area.
  await ada.getByRole('heading', { name: 'No review queues yet' }).waitFor();
  await expect(
    ada.getByRole('navigation', { name: 'Areas' }).getByRole('link').allTextContents(),
  ).resolves.toEqual(['Review', 'Settings']);
  await expectAccessible(ada, 'review (reviewer, empty)');

  // The admin makes the queue in the form: two questions, two reviews an item, both reviewers.
  const admin = await harness.signedInPage();
  await admin.getByRole('link', { name: 'Review' }).click();
  const form = admin.getByRole('form', { name: 'New review queue' });
  await form.getByLabel('Name', { exact: true }).fill('Refund answers');
  await form.getByLabel('Key').fill('correct');
  await form.getByLabel('Label').fill('Is the answer correct?');
  await form.getByRole('button', { name: 'Add a question' }).click();
  const second = form.getByRole('group', { name: 'Question 2' });
  await second.getByLabel('Key').fill('Tone!');
  await second.getByLabel('Label').fill('Tone');
  await second.getByLabel('Type').selectOption('scale');
  await form.getByLabel('Reviews per item').fill('2');
  await form.getByLabel('Ada (reviewer)').check();
  await form.getByLabel('Bo (reviewer)').check();
  await form.getByLabel('Dataset for corrections').selectOption({ label: 'Corrections' });
  await form.getByRole('button', { name: 'Create review queue' }).click();
  // The service's refusal beside the field it names; nothing made.
  await expect(second.getByRole('alert').textContent()).resolves.toContain('lower-case letters');
  await expectAccessible(admin, 'review queue form (refused)');
  await second.getByLabel('Key').fill('tone');
  await form.getByRole('button', { name: 'Create review queue' }).click();
  await admin.getByRole('heading', { name: 'Refund answers' }).waitFor();

  // A rule takes every new generation of the Action; three runs arrive in the queue in the background.
  const rules = admin.getByRole('form', { name: 'New rule' });
  await rules.getByLabel('Action').selectOption({ label: 'Refund reply' });
  await rules.getByLabel('Sample (%)').fill('100');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await admin.getByRole('table', { name: 'Rules' }).getByRole('cell', { name: 'Refund reply' }).waitFor();
  for (const question of ['Where is my refund?', 'Can I return shoes?', 'Do you ship abroad?'])
    expect(
      (await api('POST', `/v1/actions/${action.body.guid}/prompt`, { input: { question } })).status,
    ).toBe(200);
  const queue = new URL(admin.url()).pathname.split('/').at(-1);
  await eventually(async () => {
    const listed = await api('GET', `/v1/review_queues/${queue}/items`);
    return listed.body.total_count === 3 ? true : undefined;
  }, 20_000);
  await admin.reload();
  await expect.poll(() => admin.getByRole('table', { name: 'Items' }).getByRole('row').count()).toBe(4);
  await expectAccessible(admin, 'review queue');
  await screenshot(admin, 'review-queue');

  // Ada reviews from the keyboard alone: y and a digit per question, Enter; s skips the second item.
  await ada.reload();
  await ada.getByRole('table', { name: 'Review' }).getByText('0 of 3').waitFor();
  await expectAccessible(ada, 'review queues (reviewer)');
  await screenshot(ada, 'review-queues');
  await ada.getByRole('link', { name: 'Refund answers' }).click();
  await ada.getByRole('link', { name: 'Start reviewing' }).click();
  await ada.getByRole('list', { name: 'Conversation' }).getByText('Where is my refund?').first().waitFor();
  await expectAccessible(ada, 'reviewing');
  await screenshot(ada, 'reviewing');
  await reviewWithKeys(ada, ['y', '4']);
  await ada.getByRole('list', { name: 'Conversation' }).getByText('Can I return shoes?').first().waitFor();
  await ada.keyboard.press('s');
  await ada.getByRole('list', { name: 'Conversation' }).getByText('Do you ship abroad?').first().waitFor();
  await reviewWithKeys(ada, ['n', '2']);
  // Back to the skipped one, last in her line.
  await ada.getByRole('list', { name: 'Conversation' }).getByText('Can I return shoes?').first().waitFor();
  await reviewWithKeys(ada, ['y', '5']);
  await ada.getByRole('heading', { name: 'Nothing left for you in this queue' }).waitFor();
  await expectAccessible(ada, 'reviewing (done)');

  // Bo: a missing answer is refused beside its question; then a correction typed into the editor.
  await bo.reload();
  await bo.getByRole('link', { name: 'Refund answers' }).click();
  await bo.getByRole('link', { name: 'Start reviewing' }).click();
  await bo.getByRole('list', { name: 'Conversation' }).getByText('Where is my refund?').first().waitFor();
  await bo.keyboard.press('y');
  await bo.keyboard.press('Enter');
  await expect(bo.getByRole('group', { name: 'Tone' }).getByRole('alert').textContent()).resolves.toContain(
    'required',
  );
  await reviewWithKeys(bo, ['5']);
  await bo.getByText('Can I return shoes?').first().waitFor();
  await reviewWithKeys(bo, ['y', '5']);
  await bo.getByText('Do you ship abroad?').first().waitFor();
  await bo.keyboard.press('n');
  await bo.keyboard.press('1');
  await bo.getByLabel('Correction (the answer as it should have been)').focus();
  await bo.keyboard.type('Yes, to 40 countries.');
  await bo.getByRole('button', { name: 'Submit review' }).focus();
  await bo.keyboard.press('Enter');
  await bo.getByRole('heading', { name: 'Nothing left for you in this queue' }).waitFor();

  // The admin reads the agreement: both agree on every "correct"; the corrected item is in the dataset.
  await admin.reload();
  const agreement = admin.getByRole('table', { name: 'Agreement' });
  await agreement.getByRole('cell', { name: 'correct' }).waitFor();
  await expect(agreement.getByRole('row').nth(1).textContent()).resolves.toContain('100%');
  await admin.getByRole('table', { name: 'Reviewers' }).getByRole('cell', { name: 'Ada' }).waitFor();
  await expectAccessible(admin, 'review queue (agreement)');
  await screenshot(admin, 'review-agreement');
  const items = await api('GET', `/v1/datasets/${dataset.body.guid}/items`);
  expect(items.body.data).toEqual([
    expect.objectContaining({
      input: { question: 'Do you ship abroad?' },
      expected_output: 'Yes, to 40 countries.',
    }),
  ]);
}, 120_000);
