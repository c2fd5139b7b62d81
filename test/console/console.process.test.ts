import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import { expect, it, onTestFailed } from 'vitest';
import { expectAccessible, screenshot, useConsole } from '../helpers/console-browser.js';
import { buildPdf } from '../helpers/documents.js';
import {
  clientId,
  clientSecret,
  type IdentityProvider,
  startIdentityProvider,
} from '../helpers/identity-provider.js';
import { createTextAction, keyedCaller } from '../helpers/lectern-process.js';

const apiKey = 'lec_console_test_key_0123456789abcdefghijklmn';
// Every page signs in with the one key from one address: more than the default 10 a minute in a run.
const adminToken = 'console-test-admin-token-0123456789';
const call = keyedCaller(apiKey);
/** A real OpenID provider (oidc-provider) in this process, for "Sign in with SSO". */
let identityProvider: IdentityProvider;
const harness = useConsole({
  apiKey,
  environment: { LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '1000', LECTERN_ADMIN_TOKEN: adminToken },
  // The provider knows the console's callback before the console listens.
  async beforeServe(baseUrl) {
    identityProvider = await startIdentityProvider(
      {
        sally: { email: 'sally@example.com', emailVerified: true, name: 'Sally Sso' },
        nelly: { email: 'nelly@example.com', emailVerified: false, name: 'Nelly Unverified' },
      },
      `${baseUrl}/console/v1/oidc/callback`,
    );
    return {
      LECTERN_OIDC_ISSUER: identityProvider.issuer,
      LECTERN_OIDC_CLIENT_ID: clientId,
      LECTERN_OIDC_CLIENT_SECRET: clientSecret,
      LECTERN_OIDC_DEFAULT_ROLE: 'developer',
    };
  },
  afterStop: () => identityProvider?.close(),
});
const { watchedContext, signedInPage, policyViolations } = harness;

it('signs in with a key, lists the Actions, and signs out', async () => {
  await createTextAction(call, harness.server.baseUrl, {
    app: 'Support',
    name: 'Refund reply',
    model: 'mock/echo',
  });
  const context = await watchedContext();
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });

  await page.goto(`${harness.server.baseUrl}/actions`);
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  // Being signed out is no error: the console does not even ask the service (no refused request logged).
  expect(consoleErrors).toEqual([]);
  await expectAccessible(page, 'sign-in');
  await screenshot(page, 'sign-in');

  // A wrong key: the service's message next to the field, and no session.
  await page.getByRole('button', { name: 'Use an API key instead' }).click();
  await expectAccessible(page, 'sign-in (API key)');
  await screenshot(page, 'sign-in-key');
  await page.getByLabel('API key').fill('lec_wrong-key-0000000000000000000000000000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toContain('Invalid or revoked API key');

  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Actions', exact: true }).waitFor();
  await page.getByRole('cell', { name: /Refund reply/ }).waitFor();
  // App names come from a second request: the column shows the App's GUID until it answers.
  await page.getByRole('cell', { name: 'Support' }).waitFor();
  await expect(page.getByRole('cell', { name: 'Support' }).count()).resolves.toBe(1);
  await expectAccessible(page, 'actions');
  await screenshot(page, 'actions');

  // The browser holds a session cookie that scripts cannot read, and no key anywhere.
  const cookie = (await context.cookies()).find((each) => each.name === 'lectern_session');
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

it('sets up the first owner from the printed link, then signs in with an e-mail address and password', async () => {
  const token = /\/setup\?token=(\S+)/.exec(harness.server.output())?.[1];
  expect(token).toBeDefined();
  const context = await watchedContext();
  const page = await context.newPage();
  await page.goto(`${harness.server.baseUrl}/setup?token=${token}`);
  await page.getByRole('heading', { name: 'Set up Lectern' }).waitFor();
  await expectAccessible(page, 'setup');
  await screenshot(page, 'setup');

  await page.getByLabel('E-mail address').fill('owner@example.com');
  await page.getByLabel('Name').fill('Olive Owner');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
  // The service's refusal next to the field it names.
  await expect(page.getByRole('alert').textContent()).resolves.toContain('at least 12 characters');
  await page.getByLabel('Password').fill('a long owner password');
  await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
  await page.getByRole('heading', { name: 'Actions', exact: true }).waitFor();
  await expect(page.getByTitle('Signed in as').textContent()).resolves.toBe('Olive Owner · owner');
  expect(new URL(page.url()).pathname).not.toBe('/setup');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  // The used link says the owner exists and links to signing in (a restart would print no new one).
  await page.goto(`${harness.server.baseUrl}/setup?token=${token}`);
  await expect(page.getByRole('alert').textContent()).resolves.toContain('Lectern has its owner already');
  await expectAccessible(page, 'setup (used)');
  await screenshot(page, 'setup-used');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  await page.getByLabel('E-mail address').fill('owner@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong e-mail address or password');
  await expectAccessible(page, 'sign-in (refused)');
  await screenshot(page, 'sign-in-refused');
  await page.getByLabel('Password').fill('a long owner password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Actions', exact: true }).waitFor();
  await context.close();
}, 60_000);

it('offers a forgotten-password form that answers alike for any address', async () => {
  const context = await watchedContext();
  const page = await context.newPage();
  await page.goto(harness.server.baseUrl);
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  await expectAccessible(page, 'forgotten password');
  await screenshot(page, 'forgot-password');
  await page.getByLabel('E-mail address').fill('nobody-here@example.com');
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page
    .getByRole('status')
    .getByText(/If an account has this address/)
    .waitFor();
  await expectAccessible(page, 'forgotten password (sent)');
  await screenshot(page, 'forgot-password-sent');
  await page.getByRole('button', { name: 'Back to sign-in' }).click();
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  await context.close();
}, 60_000);

/** The visible text of the CodeMirror editor with this label, replaced by `text` as a person types it. */
it('lets the owner invite a developer, who joins from the link and sees what a developer may do; the owner reads the audit log', async () => {
  const ownerContext = await watchedContext({ viewport: { width: 1400, height: 900 } });
  const owner = await ownerContext.newPage();
  await owner.goto(`${harness.server.baseUrl}/settings`);
  await owner.getByLabel('E-mail address').fill('owner@example.com');
  await owner.getByLabel('Password').fill('a long owner password');
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await owner.getByRole('heading', { name: 'Members' }).waitFor();
  await owner
    .getByRole('table', { name: 'Members' })
    .getByRole('cell', { name: 'owner@example.com', exact: true })
    .waitFor();
  await owner.getByLabel('E-mail address to invite').fill('dev@example.com');
  await owner.getByLabel('Role', { exact: true }).selectOption('developer');
  await owner.getByRole('button', { name: 'Invite' }).click();
  const link = (await owner.locator('.callout .secret').textContent())!;
  expect(link).toMatch(/\/invite\?token=lin_/);
  await owner.getByRole('table', { name: 'Pending invitations' }).getByText('dev@example.com').waitFor();
  await expectAccessible(owner, 'settings (members)');
  await screenshot(owner, 'settings-members');

  const developerContext = await watchedContext({ viewport: { width: 1400, height: 900 } });
  const developer = await developerContext.newPage();
  await developer.goto(link.replace(/^http:\/\/[^/]+/, harness.server.baseUrl));
  await developer.getByRole('heading', { name: 'Join the workspace' }).waitFor();
  await expectAccessible(developer, 'invitation');
  await screenshot(developer, 'invitation');
  await developer.getByLabel('Name').fill('Dev Eloper');
  await developer.getByLabel('Password').fill('a long developer password');
  await developer.getByRole('button', { name: 'Accept and sign in' }).click();
  await developer.getByRole('heading', { name: 'Actions', exact: true }).waitFor();
  await expect(developer.getByTitle('Signed in as').textContent()).resolves.toBe('Dev Eloper · developer');
  await developer.getByRole('link', { name: 'Settings' }).click();
  await developer.getByRole('heading', { name: 'Members' }).waitFor();
  await developer.getByLabel('Your name').fill('Dev E.');
  await developer.getByRole('button', { name: 'Save name' }).click();
  await expect.poll(() => developer.getByTitle('Signed in as').textContent()).toBe('Dev E. · developer');
  // What a developer may not do is disabled, with the reason; what they may do is there.
  await expect(developer.getByLabel('Role of owner@example.com').isDisabled()).resolves.toBe(true);
  await developer.getByText('Only an admin invites members and changes roles.').waitFor();
  await developer.getByText('Only an admin or an owner reads the audit log.').waitFor();
  await developer.getByLabel('Key name').fill('my app');
  await developer.getByLabel('Key role').selectOption('runner');
  await developer.getByRole('button', { name: 'Create API key' }).click();
  const runnerKey = (await developer.locator('.callout .secret').textContent())!;
  expect((await keyedCaller(runnerKey)(harness.server.baseUrl, 'GET', '/v1/apps')).status).toBe(403);
  await expectAccessible(developer, 'settings (developer)');
  await screenshot(developer, 'settings-developer');

  // The owner makes the developer a viewer: the developer's console then offers no change.
  await owner.reload();
  await owner.getByLabel('Role of dev@example.com').selectOption('viewer');
  await expect.poll(() => owner.getByLabel('Role of dev@example.com').inputValue()).toBe('viewer');
  await developer.getByRole('link', { name: 'Actions' }).click();
  await developer.reload();
  await developer.getByRole('heading', { name: 'Actions', exact: true }).waitFor();
  await expect.poll(() => developer.getByRole('link', { name: 'New Action' }).count()).toBe(0);
  await developer.getByRole('link', { name: 'Contexts' }).click();
  await developer.getByText('A viewer may not change the workspace’s configuration.').waitFor();
  await expect(developer.getByRole('button', { name: 'Create Context' }).isDisabled()).resolves.toBe(true);
  await expectAccessible(developer, 'contexts (viewer)');
  await screenshot(developer, 'contexts-viewer');

  // The owner issues the developer a password-reset link; the developer sets a new password with it.
  await owner.getByRole('button', { name: 'Reset password of dev@example.com' }).click();
  const resetLink = (await owner.locator('.callout .secret').textContent())!;
  expect(resetLink).toMatch(/\/reset-password\?token=lpr_/);
  const resetPage = await developerContext.newPage();
  await resetPage.goto(resetLink.replace(/^http:\/\/[^/]+/, harness.server.baseUrl));
  await resetPage.getByRole('heading', { name: 'Set a new password' }).waitFor();
  await expectAccessible(resetPage, 'reset password');
  await screenshot(resetPage, 'reset-password');
  await resetPage.getByLabel('New password', { exact: true }).fill('a brand new developer password');
  await resetPage.getByRole('button', { name: 'Set the password' }).click();
  await resetPage.getByText('Your password is set.').waitFor();
  const signedIn = await fetch(`${harness.server.baseUrl}/console/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: harness.server.baseUrl },
    body: JSON.stringify({ email: 'dev@example.com', password: 'a brand new developer password' }),
  });
  expect(signedIn.status).toBe(201);
  await owner.getByRole('button', { name: 'Done' }).click();

  const records = owner.getByRole('table', { name: 'Audit records' });
  await records.getByText('POST /v1/members', { exact: true }).waitFor();
  await records.getByText('POST /v1/api_keys', { exact: true }).waitFor();
  await owner.getByLabel('Action starts with').fill('POST /v1/api_keys');
  await expect.poll(() => records.getByText('POST /v1/members', { exact: true }).count()).toBe(0);
  await expectAccessible(owner, 'settings (audit log)');
  await owner.getByRole('heading', { name: 'Audit log' }).scrollIntoViewIfNeeded();
  await screenshot(owner, 'settings-audit-log');
  await ownerContext.close();
  await developerContext.close();
}, 90_000);

it('signs in with SSO at a live OpenID provider: a first sign-in joins with the default role; an unverified address is refused', async () => {
  const context = await watchedContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${harness.server.baseUrl}/actions`);
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  // oidc-provider's own login and consent pages, at the provider's origin.
  await page.locator('input[name="login"]').fill('sally');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Actions', exact: true }).waitFor();
  expect(new URL(page.url()).origin).toBe(harness.server.baseUrl);
  await expect(page.getByTitle('Signed in as').textContent()).resolves.toBe('Sally Sso · developer');
  await page.getByRole('cell', { name: /Refund reply/ }).waitFor();
  const me = await page.evaluate(async () => (await fetch('/v1/me')).json());
  expect(me).toMatchObject({ principal: 'user', role: 'developer', user: { email: 'sally@example.com' } });
  await screenshot(page, 'signed-in-with-sso');

  // The provider vouches for an address it has not verified: Lectern refuses, and says why.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  await context.clearCookies();
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await page.locator('input[name="login"]').fill('nelly');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  await expect(page.getByRole('alert').textContent()).resolves.toMatch(/verified/);
  await expectAccessible(page, 'sign-in (single sign-on refused)');
  await screenshot(page, 'sign-in-sso-refused');
  await context.close();
}, 60_000);

it('moves a person of two workspaces between them with the switcher', async () => {
  const admin = async (route: string, body: unknown) => {
    const answer = await fetch(`${harness.server.baseUrl}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status, await answer.clone().text()).toBe(201);
    return answer.json() as Promise<{ guid: string }>;
  };
  const research = await admin('/admin/v1/workspaces', { name: 'Research' });
  await admin(`/admin/v1/workspaces/${research.guid}/members`, {
    email: 'owner@example.com',
    role: 'developer',
  });

  const context = await watchedContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  onTestFailed(() => screenshot(page, 'failed-workspace-switcher'));
  await page.goto(`${harness.server.baseUrl}/actions`);
  await page.getByLabel('E-mail address').fill('owner@example.com');
  await page.getByLabel('Password').fill('a long owner password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('cell', { name: /Refund reply/ }).waitFor();
  const switcher = page.getByLabel('Workspace', { exact: true });
  await expect(switcher.inputValue()).resolves.not.toBe(research.guid);

  await switcher.selectOption({ label: 'Research (developer)' });
  await expect.poll(() => page.getByTitle('Signed in as').textContent()).toBe('Olive Owner · developer');
  // Nothing of the first workspace stays on screen or in the cache: Research has no Actions yet.
  await page.getByText('No Actions yet').waitFor();
  await expect(page.getByRole('cell', { name: /Refund reply/ }).count()).resolves.toBe(0);
  const me = await page.evaluate(
    async () => (await fetch('/v1/me')).json() as Promise<{ workspace: { guid: string; name: string } }>,
  );
  expect(me.workspace).toEqual({ guid: research.guid, name: 'Research' });
  await expectAccessible(page, 'workspace switcher');
  await screenshot(page, 'workspace-switched');

  await switcher.selectOption({ label: 'default (owner)' });
  await expect.poll(() => page.getByTitle('Signed in as').textContent()).toBe('Olive Owner · owner');
  await page.getByRole('cell', { name: /Refund reply/ }).waitFor();
  await context.close();
}, 60_000);

async function typeTemplate(page: Page, label: string, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: label, exact: true });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

it('creates an Action, edits and versions it, diffs, deploys, runs it streaming, logs feedback and sees it counted', async () => {
  const page = await signedInPage();

  // Create: a new App, the slow mock model so the tokens visibly stream, a one-variable prompt.
  await page.getByRole('link', { name: 'New Action' }).click();
  await page.getByRole('heading', { name: 'New Action' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('Haiku writer');
  await page.getByLabel('App', { exact: true }).selectOption({ label: 'New App…' });
  await page.getByLabel('New App name').fill('Poetry');
  await page.getByLabel('Model').fill('mock/slow');
  await typeTemplate(page, 'Prompt', 'Write a haiku about {{topic}}');
  await expect(page.getByRole('list', { name: 'Template variables' }).textContent()).resolves.toBe('topic');
  await expectAccessible(page, 'new action');
  await page.getByRole('button', { name: 'Create Action' }).click();
  await page.getByRole('heading', { name: 'Haiku writer' }).waitFor();

  // Edit: a second variable appears as it is typed; save makes version 2.
  await typeTemplate(page, 'Prompt', 'Write a {{form}} about {{topic}} in {{language}}');
  await expect(page.getByRole('list', { name: 'Template variables' }).textContent()).resolves.toBe(
    'formtopiclanguage',
  );
  // A template that does not parse is shown at once, before saving.
  await typeTemplate(page, 'Prompt', 'Write about {{topic');
  await page.getByText(/output "\{\{topic" not closed/).waitFor();
  await typeTemplate(page, 'Prompt', 'Write a {{form}} about {{topic}} in {{language}}');
  await page.getByLabel('Temperature').fill('0.3');
  await expectAccessible(page, 'editor');
  await screenshot(page, 'action-editor', true);
  await page.getByRole('button', { name: 'Save as version 2' }).click();
  await page.getByText('Saved as version 2').waitFor();

  // A bad value comes back from the API next to its field.
  await page.getByLabel('Temperature').fill('7');
  await page.getByRole('button', { name: 'Save as version 3' }).click();
  await page.locator('.field-error', { hasText: 'temperature' }).waitFor();
  await page.getByRole('button', { name: 'Discard' }).click();

  // Versions: the diff of 1 and 2, then deploy 2 to staging.
  await page.getByRole('link', { name: 'Versions' }).click();
  const diff = page.getByRole('table', { name: 'Differences between version 1 and version 2' });
  await diff.waitFor();
  await expect(diff.locator('.removed-text').allTextContents()).resolves.toContain(
    'removed: Write a haiku about {{topic}}',
  );
  await expect(diff.locator('.added-text').allTextContents()).resolves.toEqual(
    expect.arrayContaining([
      'added: temperature: 0.3',
      'added: Write a {{form}} about {{topic}} in {{language}}',
    ]),
  );
  await page.getByLabel('Version', { exact: true }).selectOption('2');
  await page.getByLabel('Environment').fill('staging');
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByText('Version 2 now runs in staging.').waitFor();
  await page.getByRole('list', { name: 'Deployments' }).getByText('staging v2').waitFor();
  await expectAccessible(page, 'versions');
  await screenshot(page, 'versions');

  // An unsaved edit runs from the playground before it is saved (and is not saved by running).
  await page.getByRole('link', { name: 'Editor' }).click();
  await typeTemplate(page, 'Prompt', 'Draft about {{topic}}');
  await page.getByRole('link', { name: 'Playground' }).click();
  await expect(
    page.getByRole('group', { name: 'Run', exact: true }).getByLabel('Version').inputValue(),
  ).resolves.toBe('draft');
  await page.getByLabel('topic').fill('moss');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.locator('pre.answer[data-status="done"]', { hasText: 'Draft about moss' }).waitFor();
  expect(
    (await call(harness.server.baseUrl, 'GET', `/v1/actions/${page.url().split('/').at(-2)}`)).body.version,
  ).toBe(2);

  // Playground: staging (v2) asks for its three variables; the answer streams in token by token.
  await page
    .getByRole('group', { name: 'Run', exact: true })
    .getByLabel('Version')
    .selectOption({ label: 'staging (v2)' });
  await page.getByLabel('form').fill('limerick');
  await page.getByLabel('topic').fill('glaciers');
  await page.getByLabel('language').fill('French');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const answer = page.getByRole('log', { name: 'Answer' });
  // Part of the answer while the run is still streaming: mock/slow sends a token every 50 ms.
  await page.locator('pre.answer[data-status="streaming"]', { hasText: 'Write' }).waitFor();
  await page.locator('pre.answer[data-status="done"]', { hasText: 'limerick' }).waitFor();
  await expect(answer.textContent()).resolves.toBe('Write a limerick about glaciers in French');
  await page.getByText(/\d+ in · \d+ out/).waitFor();
  await expectAccessible(page, 'playground');
  await screenshot(page, 'playground');

  // Generations: the run is there; its drawer shows the prompt sent; feedback is added.
  await page.locator('.facts a').click();
  await page.getByRole('heading', { name: 'Generations' }).waitFor();
  const drawer = page.getByRole('dialog', { name: 'Generation' });
  await drawer.getByText('Write a limerick about glaciers in French').first().waitFor();
  await drawer.getByLabel('Value').fill('2');
  await drawer.getByRole('button', { name: 'Add feedback' }).click();
  await drawer.getByText('from console').waitFor();
  await expectAccessible(page, 'generation drawer');
  await screenshot(page, 'generations');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  // The list counts the record’s feedback (the tenth column, after the selection box).
  const rated = page.getByRole('row', { name: /limerick about glaciers/ });
  await expect.poll(() => rated.getByRole('cell').nth(9).textContent()).toBe('1');
  await expectAccessible(page, 'generations');

  // Filters: by text and by Action; the export link carries them.
  await page.getByLabel('Text in input or output').fill('glaciers');
  await page.getByRole('button', { name: 'Apply' }).click();
  // The list answers the new filter a moment after the click.
  await expect
    .poll(() => page.getByRole('table', { name: 'Generations' }).locator('tbody tr').count())
    .toBe(1);
  const exported = await page.evaluate(async () => {
    const link = (globalThis as any).document.querySelector('a[href*="format=jsonl"]').getAttribute('href');
    return (await fetch(link)).text();
  });
  expect(exported.trim().split('\n')).toHaveLength(1);
  expect(JSON.parse(exported).output).toBe('Write a limerick about glaciers in French');

  // The sidebar groups the areas as a team works: build, observe, improve; Settings below them.
  const areas = page.getByRole('navigation', { name: 'Areas' });
  await expect(areas.getByRole('heading').allTextContents()).resolves.toEqual([
    'Build',
    'Observe',
    'Improve',
  ]);
  await expect(
    areas.getByRole('region', { name: 'Observe' }).getByRole('link').allTextContents(),
  ).resolves.toEqual(['Generations', 'Traces', 'Sessions', 'Dashboard']);

  // Dashboard: the run and its feedback are counted, the rating of 2 as good on Klu's scale.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  const tiles = page.locator('.tiles');
  await tiles.waitFor();
  await expect(tiles.textContent()).resolves.toMatch(
    /Runs2.*Errors0.*Feedback rate50%.*Rated good \/ bad1 \/ 0/,
  );
  await expect(
    page.getByRole('table', { name: 'Latency and feedback per Action' }).textContent(),
  ).resolves.toContain('Haiku writer');
  await expectAccessible(page, 'dashboard');
  await screenshot(page, 'dashboard', true);

  // The audit log shows the version save as each changed field, before and after.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Action starts with').fill('PUT /v1/actions');
  const saved = page.getByRole('table', { name: 'Audit records' }).locator('details').first();
  await saved.locator('summary').click();
  await expect(saved.locator('summary').textContent()).resolves.toMatch(/^v1 → v2: .*prompt/);
  await expect(saved.locator('ins').allTextContents()).resolves.toContain(
    'Write a {{form}} about {{topic}} in {{language}}',
  );
  await expectAccessible(page, 'settings (audit version diff)');
  await saved.scrollIntoViewIfNeeded();
  await screenshot(page, 'audit-version-diff');

  // Compare: the same input on the same version with two models, side by side.
  await page.getByRole('link', { name: 'Actions' }).click();
  await page.getByRole('link', { name: 'Haiku writer' }).click();
  await page.getByRole('link', { name: 'Playground' }).click();
  await page.getByRole('button', { name: 'Compare' }).click();
  await page
    .getByRole('group', { name: 'Run', exact: true })
    .getByLabel('Version')
    .selectOption({ label: 'version 2' });
  await page
    .getByRole('group', { name: 'Compare with' })
    .getByLabel('Version')
    .selectOption({ label: 'version 2' });
  await page.getByRole('group', { name: 'Compare with' }).getByLabel('Model').fill('mock/json');
  const inputs: [string, string][] = [
    ['form', 'sonnet'],
    ['topic', 'tides'],
    ['language', 'Dutch'],
  ];
  for (const [name, value] of inputs) await page.getByLabel(name, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const answers = page.locator('pre.answer[data-status="done"]');
  await expect.poll(() => answers.count()).toBe(2);
  await expect(answers.allTextContents()).resolves.toEqual([
    'Write a sonnet about tides in Dutch',
    '{"echo":"Write a sonnet about tides in Dutch"}',
  ]);
  await expectAccessible(page, 'playground compare');
  await screenshot(page, 'playground-compare');
  await page.context().close();
}, 120_000);

it('tells an editor that someone saved while they edited: the diff, then theirs or mine, never an overwrite', async () => {
  const baseUrl = harness.server.baseUrl;
  const guid = await createTextAction(call, baseUrl, {
    app: 'Edits',
    name: 'Shared reply',
    model: 'mock/echo',
  });
  const page = await signedInPage();
  await page.goto(`${baseUrl}/actions/${guid}/editor`);
  await page.getByRole('heading', { name: 'Shared reply' }).waitFor();
  await typeTemplate(page, 'Prompt', 'Mine: {{text}}');

  // Someone else saves version 2 meanwhile.
  const theirs = await call(baseUrl, 'PUT', `/v1/actions/${guid}`, { prompt: 'Theirs: {{text}}' });
  expect(theirs.body.version).toBe(2);

  await page.getByRole('button', { name: 'Save as version 2' }).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'saved version 2 while you were editing' });
  await conflict.waitFor();
  const diff = conflict.getByRole('table');
  await expect(diff.getAttribute('aria-label')).resolves.toBe(
    'Differences between Version 2 (saved) and Your changes',
  );
  await diff.locator('.removed-text').first().waitFor();
  await expect(diff.locator('.removed-text').allTextContents()).resolves.toContain(
    'removed: Theirs: {{text}}',
  );
  await expect(diff.locator('.added-text').allTextContents()).resolves.toContain('added: Mine: {{text}}');
  // Nothing was overwritten.
  expect((await call(baseUrl, 'GET', `/v1/actions/${guid}`)).body).toMatchObject({
    version: 2,
    prompt: 'Theirs: {{text}}',
  });
  await expectAccessible(page, 'save conflict');
  await screenshot(page, 'action-save-conflict', true);

  await page.getByRole('button', { name: 'Save mine as version 3' }).click();
  await page.getByText('Saved as version 3').waitFor();
  expect((await call(baseUrl, 'GET', `/v1/actions/${guid}`)).body).toMatchObject({
    version: 3,
    prompt: 'Mine: {{text}}',
  });

  // Again, and this time theirs is kept: the editor shows their version.
  await typeTemplate(page, 'Prompt', 'Mine again: {{text}}');
  await call(baseUrl, 'PUT', `/v1/actions/${guid}`, { prompt: 'Theirs again: {{text}}' });
  await page.getByRole('button', { name: 'Save as version 4' }).click();
  await page.getByRole('alert').filter({ hasText: 'saved version 4 while you were editing' }).waitFor();
  await page.getByRole('button', { name: 'Discard mine and open version 4' }).click();
  await page
    .getByRole('textbox', { name: 'Prompt', exact: true })
    .filter({ hasText: 'Theirs again' })
    .waitFor();
  expect((await call(baseUrl, 'GET', `/v1/actions/${guid}`)).body.version).toBe(4);
}, 60_000);

it('makes a snippet, edits its text, and lists the Actions that include it and which are behind', async () => {
  const baseUrl = harness.server.baseUrl;
  const page = await signedInPage();
  await page.getByRole('link', { name: 'Snippets' }).click();
  await page.getByRole('heading', { name: 'Snippets', exact: true }).waitFor();
  await expectAccessible(page, 'snippets (empty)');
  await page.getByLabel('Name').fill('Bad Name');
  await page.getByRole('button', { name: 'Create snippet' }).click();
  await page.locator('.field-error', { hasText: 'lowercase letters' }).waitFor();
  await screenshot(page, 'snippets');
  await page.getByLabel('Name').fill('house-tone');
  await page.getByRole('button', { name: 'Create snippet' }).click();
  await page.getByRole('heading', { name: 'house-tone' }).waitFor();
  await typeTemplate(page, 'Text', 'Be warm and brief, {{customer}}.');
  await page.getByLabel('Folder').fill('shared/voice');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved; the latest version is 2').waitFor();

  // An Action includes it; a new snippet version leaves the Action behind until its next save.
  const app = await call(baseUrl, 'POST', '/v1/apps', { name: 'Voice' });
  const action = await call(baseUrl, 'POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'Warm reply',
    model: 'mock/echo',
    prompt: "{% include 'house-tone' %} Answer {{question}}",
  });
  expect(action.body.snippets).toEqual({ 'house-tone': 2 });
  await typeTemplate(page, 'Text', 'Be warm, brief and exact, {{customer}}.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved; the latest version is 3').waitFor();
  const dependents = page.getByRole('table', { name: 'Actions that include it' });
  await dependents.getByRole('link', { name: action.body.slug }).waitFor();
  await dependents.getByText('behind: its next save takes v3').waitFor();

  // The Action's editor completes snippet names after `{% include '` and shows a snippet on hover.
  await page.goto(`${baseUrl}/actions/${action.body.guid}/editor`);
  const prompt = page.getByRole('textbox', { name: 'Prompt', exact: true });
  await prompt.waitFor();
  await page
    .locator('.cm-content', { hasText: "{% include 'house-tone' %}" })
    .first()
    .hover({ position: { x: 40, y: 8 } });
  const tooltip = page.locator('.snippet-tooltip');
  await tooltip.waitFor();
  expect(await tooltip.textContent()).toContain('Be warm, brief and exact, {{customer}}.');
  // The snippet's variables are the Action's: the list beside the editor shows them.
  await page.getByText('customer', { exact: true }).waitFor();
  await expectAccessible(page, 'snippet on hover');
  await screenshot(page, 'snippet-hover');
  await prompt.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(" {% include 'ho");
  const completion = page.locator('.cm-tooltip-autocomplete');
  await completion.getByText('house-tone').waitFor();
  await screenshot(page, 'snippet-completion');
  await page.keyboard.press('Enter');
  await page
    .locator('.cm-content', { hasText: "Answer {{question}} {% include 'house-tone" })
    .first()
    .waitFor();
  await page.goto(`${baseUrl}/snippets/house-tone`);
  await page.getByRole('heading', { name: 'house-tone' }).waitFor();

  // A text that includes itself is refused next to the editor, and nothing is saved.
  await typeTemplate(page, 'Text', "Loop {% include 'house-tone' %}");
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('.field-error', { hasText: 'would include itself' }).waitFor();
  expect((await call(baseUrl, 'GET', '/v1/snippets/house-tone')).body.version).toBe(3);
  await expectAccessible(page, 'snippet');
  await screenshot(page, 'snippet', true);
}, 60_000);

it('files Actions in folders: the tree beside the list, a folder and below, breadcrumbs, and a move', async () => {
  const baseUrl = harness.server.baseUrl;
  const app = await call(baseUrl, 'POST', '/v1/apps', { name: 'Filed' });
  const create = (name: string, folder: string) =>
    call(baseUrl, 'POST', '/v1/actions/create', {
      app: app.body.guid,
      name,
      model: 'mock/echo',
      prompt: 'x',
      folder,
    });
  const refunds = (await create('Refund answer', 'helpdesk/billing')).body;
  await create('Greeting', 'helpdesk');
  await create('Loose one', '');
  const page = await signedInPage();
  await page.goto(`${baseUrl}/actions`);
  const tree = page.getByRole('navigation', { name: 'Folders' });
  await tree.getByRole('link', { name: /^helpdesk 2$/ }).click();
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('helpdesk').waitFor();
  const table = page.getByRole('table', { name: 'Actions' });
  await table.getByRole('link', { name: 'Greeting' }).waitFor();
  await table.getByRole('link', { name: 'Refund answer' }).waitFor();
  // The list of the folder replaces the whole list it was opened from.
  await table.getByRole('link', { name: 'Loose one' }).waitFor({ state: 'detached' });
  await expectAccessible(page, 'actions in a folder');
  await screenshot(page, 'actions-folders');
  await tree.getByRole('link', { name: /^billing 1$/ }).click();
  await table.getByRole('link', { name: 'Greeting' }).waitFor({ state: 'detached' });
  await expect(table.getByRole('row').count()).resolves.toBe(2);

  // The Action's page: where it is filed, and a move that makes no new version.
  await page.getByRole('table', { name: 'Actions' }).getByRole('link', { name: 'Refund answer' }).click();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await crumbs.getByRole('link', { name: 'billing' }).waitFor();
  const move = page.getByRole('form', { name: 'Move the Action' });
  await move.getByLabel('Folder').fill('a/../b');
  await move.getByRole('button', { name: 'Move' }).click();
  await move.locator('.field-error', { hasText: 'dots alone' }).waitFor();
  await move.getByLabel('Folder').fill('archive');
  await move.getByRole('button', { name: 'Move' }).click();
  await move.getByText('Moved to archive').waitFor();
  expect((await call(baseUrl, 'GET', `/v1/actions/${refunds.guid}`)).body).toMatchObject({
    folder: 'archive',
    version: 1,
  });
  await crumbs.getByRole('link', { name: 'archive' }).waitFor();
  await expectAccessible(page, 'action with its folder');
  await screenshot(page, 'action-folder');
}, 60_000);

it('drops a PDF on a Context, watches it reach INDEXED and searches it; runs an experiment; manages keys and sessions', async () => {
  const page = await signedInPage();

  // Contexts: create one, drop a two-page PDF on it, watch the source index, search it.
  await page.getByRole('link', { name: 'Contexts' }).click();
  await page.getByRole('heading', { name: 'No Contexts yet' }).waitFor();
  await expectAccessible(page, 'contexts (empty)');
  await page.getByLabel('Name', { exact: true }).fill('Handbook');
  await page.getByRole('button', { name: 'Create Context' }).click();
  await page.getByRole('heading', { name: 'Handbook' }).waitFor();
  const pdf = buildPdf(['Refunds are paid within fourteen days.', 'Glaciers calve icebergs into the fjord.']);
  await page.getByRole('region', { name: 'Drop files to add them' }).evaluate((zone, base64) => {
    // In the page: the tests compile without the DOM's types.
    const page = globalThis as any;
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
    const transfer = new page.DataTransfer();
    transfer.items.add(new File([bytes], 'handbook.pdf', { type: 'application/pdf' }));
    zone.dispatchEvent(
      new page.DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
    );
  }, pdf.toString('base64'));
  const sources = page.getByRole('table', { name: 'Sources' });
  await sources.getByText('INDEXED').waitFor({ timeout: 60_000 });
  await expect(sources.locator('tbody tr').count()).resolves.toBe(1);
  await sources.getByRole('cell', { name: 'handbook.pdf' }).waitFor();
  await page.getByRole('table', { name: 'Documents' }).getByText('Glaciers calve icebergs').waitFor();
  await page.getByLabel('Query').fill('icebergs fjord');
  await page.getByLabel('Mode').selectOption('lexical');
  await page.getByRole('button', { name: 'Search' }).click();
  const hits = page.getByRole('list', { name: 'Search results' });
  await hits.getByText('Glaciers calve icebergs into the fjord.').waitFor();
  await expect(hits.locator('.score').first().textContent()).resolves.toMatch(/^\d\.\d{3}$/);
  // A malformed metadata filter is refused next to its field, before any request.
  await page.getByLabel('Metadata filter (JSON)').fill('{page:');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.locator('.field-error', { hasText: 'metadata_filter: not valid JSON' }).waitFor();
  await page.getByLabel('Metadata filter (JSON)').fill('');
  await expectAccessible(page, 'context');
  await screenshot(page, 'context');
  // The list shows it, linked by name.
  await page.getByRole('link', { name: 'Contexts' }).click();
  await page.getByRole('table', { name: 'Contexts' }).getByRole('link', { name: 'Handbook' }).waitFor();
  await expectAccessible(page, 'contexts');
  await screenshot(page, 'contexts');

  // Experiments: two Actions of one App; both arms run and show.
  const app = await call(harness.server.baseUrl, 'POST', '/v1/apps', { name: 'Greetings' });
  for (const [name, prompt] of [
    ['Formal hello', 'Good day, {{name}}.'],
    ['Casual hello', 'Hey {{name}}!'],
  ]) {
    await call(harness.server.baseUrl, 'POST', '/v1/actions/create', {
      app: app.body.guid,
      name,
      model: 'mock/echo',
      prompt,
    });
  }
  await page.getByRole('link', { name: 'Experiments' }).click();
  await page.getByRole('heading', { name: 'Experiments', exact: true }).waitFor();
  await expectAccessible(page, 'experiments');
  await page.getByLabel('Name', { exact: true }).fill('Greeting tone');
  await page.getByLabel('App').selectOption({ label: 'Greetings' });
  await page.getByLabel('Primary Action (control)').selectOption({ label: 'Formal hello' });
  await page.getByLabel('Secondary Action').selectOption({ label: 'Casual hello' });
  await page.getByRole('button', { name: 'Create experiment' }).click();
  await page.getByRole('heading', { name: 'Greeting tone' }).waitFor();
  const experimentGuid = page.url().split('/').at(-1)!;
  for (let user = 0; user < 12; user += 1) {
    const run = await call(harness.server.baseUrl, 'POST', `/v1/experiments/${experimentGuid}/prompt`, {
      input: { name: `user ${user}` },
      extUserId: `user-${user}`,
    });
    await call(harness.server.baseUrl, 'POST', `/v1/feedback/${run.body.data_guid}`, {
      type: 'rating',
      value: user % 3 ? '1' : '0',
    });
  }
  await page.reload();
  const arms = page.getByRole('table', { name: 'Arms' });
  await arms.getByText('Formal hello').waitFor();
  await arms.getByText('Casual hello').waitFor();
  const runs = await arms.locator('tbody tr td:nth-child(3)').allTextContents();
  expect(runs.map(Number).reduce((sum, count) => sum + count, 0)).toBe(12);
  await page.getByRole('img', { name: /^primary: [\d.]+%, 95% interval/ }).waitFor();
  await expectAccessible(page, 'experiment');
  await screenshot(page, 'experiment');
  await page.getByRole('button', { name: 'Declare secondary the winner' }).click();
  await page.getByText('completed').first().waitFor();
  const declared = await call(harness.server.baseUrl, 'POST', `/v1/experiments/${experimentGuid}/prompt`, {
    input: { name: 'x' },
  });
  expect(declared.body.variant).toBe('secondary');
  await page.getByRole('link', { name: 'Experiments' }).click();
  const experiments = page.getByRole('table', { name: 'Experiments' });
  await experiments.getByRole('link', { name: 'Greeting tone' }).waitFor();
  await experiments.getByText('completed').waitFor();
  await expectAccessible(page, 'experiments (one)');
  await screenshot(page, 'experiments');

  // Sessions: a conversation of two turns reads in order.
  const formal = (await call(harness.server.baseUrl, 'GET', '/v1/actions?limit=100')).body.data.find(
    (action: { name: string }) => action.name === 'Formal hello',
  );
  const session = await call(harness.server.baseUrl, 'POST', '/v1/sessions', {
    action: formal.guid,
    name: 'Support chat',
  });
  for (const name of ['Ada', 'Grace']) {
    await call(harness.server.baseUrl, 'POST', `/v1/actions/${formal.guid}/prompt`, {
      input: { name },
      session: session.body.guid,
    });
  }
  await page.getByRole('link', { name: 'Sessions' }).click();
  await page.getByRole('link', { name: 'Support chat' }).waitFor();
  await expectAccessible(page, 'sessions');
  await page.getByRole('link', { name: 'Support chat' }).click();
  const turns = page.getByRole('list', { name: 'Turns' });
  await turns.getByText('Good day, Grace.').first().waitFor();
  const texts = await turns.locator('.bubble.assistant p').allTextContents();
  expect(texts.slice(0, 2)).toEqual(['Good day, Ada.', 'Good day, Grace.']);
  await expectAccessible(page, 'session');

  // Settings: a new key is shown once and works; revoking it refuses it.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Key name').fill('console test');
  // Keys default to `runner` (an application's); this one reads, so it is a viewer's.
  await page.getByLabel('Key role').selectOption('viewer');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const newKey = (await page.locator('.secret').textContent())!;
  expect(newKey).toMatch(/^lec_/);
  expect((await keyedCaller(newKey)(harness.server.baseUrl, 'GET', '/v1/apps')).status).toBe(200);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.locator('.secret').count()).resolves.toBe(0);
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: `Revoke ${newKey.slice(0, 12)}` }).click();
  await page.getByText(/^revoked /).waitFor();
  expect((await keyedCaller(newKey)(harness.server.baseUrl, 'GET', '/v1/apps')).status).toBe(401);
  // The kinds are the service's own (GET /v1/providers/kinds); the field the service refuses is
  // marked next to its input, as the error body names it.
  await page.getByLabel('Provider', { exact: true }).selectOption({ label: 'OpenAI-compatible server' });
  await page.getByText('Required', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Add provider' }).click();
  await page
    .getByRole('alert')
    .getByText(/url: required for this provider/)
    .waitFor();
  expect(await page.getByLabel('Base URL').getAttribute('aria-invalid')).toBe('true');
  await page.getByLabel('Provider', { exact: true }).selectOption({ label: 'OpenAI' });
  // A provider key is write-only: listed masked, never in the page.
  await page.getByLabel('API key', { exact: true }).fill('sk-console-secret-0123456789');
  await page.getByRole('button', { name: 'Add provider' }).click();
  await page.getByRole('table', { name: 'Providers' }).getByText('••••••••').waitFor();
  await expect(page.content()).resolves.not.toContain('sk-console-secret');
  await page.getByLabel('Provider', { exact: true }).selectOption('mock');
  await page.getByLabel('Nickname').fill('offline');
  await page.getByRole('button', { name: 'Add provider' }).click();
  await page.getByRole('button', { name: 'Test connection of offline' }).click();
  await page.getByText('✓ the mock provider needs no connection').waitFor();
  await page.getByLabel('Model provider').selectOption({ label: 'offline' });
  await page.getByLabel('Model name').fill('echo');
  await page.getByRole('button', { name: 'Add model' }).click();
  await page.getByText('offline/echo').waitFor();
  await expectAccessible(page, 'settings');
  await screenshot(page, 'settings');
  await page.context().close();
}, 180_000);

it('creates a Skill from its type form, builds a Workflow block by block, runs it and watches each block', async () => {
  const page = await signedInPage();
  const app = await call(harness.server.baseUrl, 'POST', '/v1/apps', { name: 'Pipelines' });
  for (const [name, prompt] of [
    ['Shout', 'LOUD {{text}}'],
    ['Wrap', '[{{text}}]'],
  ]) {
    await call(harness.server.baseUrl, 'POST', '/v1/actions/create', {
      app: app.body.guid,
      name,
      model: 'mock/echo',
      prompt,
    });
  }

  // Skills: the form follows the chosen type; a required Action is picked from the workspace.
  await page.getByRole('link', { name: 'Skills' }).click();
  await page.getByRole('heading', { name: 'No Skills yet' }).waitFor();
  await page.getByLabel('Type').selectOption('action');
  await page.getByLabel('Name', { exact: true }).fill('shouter');
  await page.getByLabel('action', { exact: true }).selectOption({ label: 'Shout' });
  await expectAccessible(page, 'skills');
  await page.getByRole('button', { name: 'Create Skill' }).click();
  await page.getByRole('table', { name: 'Skills' }).getByText('shouter').waitFor();
  await screenshot(page, 'skills');

  // Workflows: two Action blocks added in the wrong order, reordered, saved, then run.
  await page.getByRole('link', { name: 'Workflows' }).click();
  // The page loads its code first: wait for it, or the Skills form's Name field is the one filled.
  await page.getByRole('heading', { name: 'Workflows', exact: true }).waitFor();
  await expectAccessible(page, 'workflows');
  await page.getByLabel('Name', { exact: true }).fill('Shout then wrap');
  await page.getByLabel('App').selectOption({ label: 'Pipelines' });
  await page.getByRole('button', { name: 'Create Workflow' }).click();
  await page.getByRole('heading', { name: 'Shout then wrap' }).waitFor();
  await page.getByRole('button', { name: 'Add block' }).click();
  await page.getByLabel('Name of block 1').fill('wrap');
  await page.getByLabel('Action of block 1').selectOption({ label: 'Wrap' });
  await page.getByRole('button', { name: 'Add block' }).click();
  await page.getByLabel('Name of block 2').fill('shout');
  await page.getByLabel('Action of block 2').selectOption({ label: 'Shout' });
  await page.getByRole('button', { name: 'Add a variable' }).nth(1).click();
  await page.getByLabel('Variable 1 of block 2', { exact: true }).fill('text');
  await page.getByLabel('Value of variable 1 of block 2', { exact: true }).fill('{{input.question}}');
  await page.getByRole('button', { name: 'Move block 2 up' }).click();
  await expect(page.getByLabel('Name of block 1').inputValue()).resolves.toBe('shout');
  await page.getByRole('button', { name: 'Save blocks' }).click();
  await page.getByText('Saved.').waitFor();
  const stored = await call(
    harness.server.baseUrl,
    'GET',
    `/v1/workflows/${page.url().split('/').at(-1)}/blocks`,
  );
  expect(stored.body.blocks.map((block: { name: string }) => block.name)).toEqual(['shout', 'wrap']);

  await page.getByLabel('Input value 1').fill('hello');
  await page.getByRole('button', { name: 'Trigger run' }).click();
  const outputs = page.getByRole('list', { name: 'Block outputs' });
  await page.getByText('Result: [LOUD hello]').waitFor();
  await expect(outputs.locator('pre').allTextContents()).resolves.toEqual(['LOUD hello', '[LOUD hello]']);
  await expectAccessible(page, 'workflow');
  await screenshot(page, 'workflow');
  await page.getByRole('link', { name: 'Workflows' }).click();
  const workflows = page.getByRole('table', { name: 'Workflows' });
  await workflows.getByRole('link', { name: 'Shout then wrap' }).waitFor();
  await workflows.getByText('Pipelines').waitFor();
  await expectAccessible(page, 'workflows (one)');
  await screenshot(page, 'workflows');
  await page.context().close();
}, 120_000);

it('builds a dataset from a file, edits an item and reads an earlier version; makes an evaluator and tries it', async () => {
  const page = await signedInPage();
  await page.getByRole('link', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'No datasets yet' }).waitFor();
  await expectAccessible(page, 'datasets (empty)');
  await page.getByLabel('Name').fill('Refund questions');
  await page.getByRole('button', { name: 'Create dataset' }).click();
  await page.getByRole('heading', { name: 'Refund questions' }).waitFor();

  // A bad line: the import names it, and nothing of the file is stored.
  const file = page.getByLabel('JSON Lines or CSV file');
  await file.setInputFiles({
    name: 'bad.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from('{"input": "fine"}\n{"input": 42}\n'),
  });
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^line 2: input: /);
  await page.getByText('No items in version 1.').waitFor();
  await file.setInputFiles({
    name: 'questions.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'question,expected_output\nCan I get a refund?,Yes within 30 days\nWhere is my order?,\n',
    ),
  });
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByText('Imported 2 items as version 2.').waitFor();
  const order = '{"question":"Where is my order?"}';
  await page.getByRole('table', { name: 'Items of version 2' }).getByText(order).waitFor();

  await page.getByRole('button', { name: `Edit the expected output of ${order}` }).click();
  await page.getByLabel('Expected output', { exact: true }).fill('It ships in two days.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('table', { name: 'Items of version 3' }).getByText('It ships in two days.').waitFor();
  await expectAccessible(page, 'dataset');
  await screenshot(page, 'dataset');
  await page.getByLabel('Version', { exact: true }).selectOption('2');
  const second = page.getByRole('table', { name: 'Items of version 2' });
  await second.getByText(order).waitFor();
  await expect(second.getByText('It ships in two days.').count()).resolves.toBe(0);
  await expect(page.getByRole('button', { name: 'Remove', exact: false }).count()).resolves.toBe(0);

  await page.getByRole('link', { name: 'Evaluators' }).click();
  await page.getByRole('heading', { name: 'No evaluators yet' }).waitFor();
  await page.getByLabel('Type').selectOption('regex');
  await page.getByLabel('Name').fill('Mentions a refund');
  await page.getByLabel('Settings (JSON)').fill('{"pattern": "refund", "flags": "i"}');
  await page.getByLabel('Output', { exact: true }).fill('Your Refund is on its way');
  await page.getByRole('button', { name: 'Test' }).click();
  await page.getByText('Score 1').waitFor();
  // A pattern that is no regular expression: the service's reason next to the settings.
  await page.getByLabel('Settings (JSON)').fill('{"pattern": "("}');
  await page.getByRole('button', { name: 'Create evaluator' }).click();
  await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(/^config\.pattern: /);
  await page.getByLabel('Settings (JSON)').fill('{"pattern": "refund", "flags": "i"}');
  await page.getByRole('button', { name: 'Create evaluator' }).click();
  await page.getByRole('table', { name: 'Evaluators' }).getByText('Mentions a refund').waitFor();
  await expectAccessible(page, 'evaluators');
  await screenshot(page, 'evaluators');

  // Generations → Add to dataset: the selected runs' inputs, with their outputs expected.
  const parcel = await createTextAction(call, harness.server.baseUrl, {
    app: 'Shipping',
    name: 'Parcel reply',
    model: 'mock/echo',
  });
  expect(
    (
      await call(harness.server.baseUrl, 'POST', `/v1/actions/${parcel}/prompt`, {
        input: 'Where is my parcel?',
      })
    ).status,
  ).toBe(200);
  await page.getByRole('link', { name: 'Generations' }).click();
  const generations = page.getByRole('table', { name: 'Generations' });
  await generations.getByRole('checkbox').first().check();
  await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Refund questions' });
  await page.getByRole('button', { name: 'Add 1 selected to dataset' }).click();
  await page.getByText('Added 1 to Refund questions as version 4.').waitFor();
  await expect(generations.getByRole('checkbox', { checked: true }).count()).resolves.toBe(0);
  await expectAccessible(page, 'generations (add to dataset)');
  await screenshot(page, 'generations-add-to-dataset');
  await page.getByRole('status').getByRole('link', { name: 'Refund questions' }).click();
  await expect
    .poll(() => page.getByRole('table', { name: 'Items of version 4' }).getByRole('row').count())
    .toBe(4);
  await page.context().close();
}, 60_000);

it('signs out everywhere from Settings: every browser signed in with the key is signed out', async () => {
  const laptop = await signedInPage();
  const phone = await signedInPage();
  await laptop.getByRole('link', { name: 'Settings' }).click();
  await laptop.getByRole('heading', { name: 'Console sign-ins' }).waitFor();
  await expectAccessible(laptop, 'settings (sign-ins)');
  // The first answer to the confirmation is "no": nothing happens.
  laptop.once('dialog', (dialog) => void dialog.dismiss());
  await laptop.getByRole('button', { name: 'Sign out everywhere' }).click();
  expect(await phone.evaluate(async () => (await fetch('/v1/apps')).status)).toBe(200);
  laptop.once('dialog', (dialog) => void dialog.accept());
  await laptop.getByRole('button', { name: 'Sign out everywhere' }).click();
  await laptop.getByRole('heading', { name: 'Sign in to Lectern' }).waitFor();
  await screenshot(laptop, 'signed-out-everywhere');
  // The other browser's next request finds its sign-in ended.
  const status = await phone.evaluate(async () => (await fetch('/v1/apps')).status);
  expect(status).toBe(401);
  await laptop.context().close();
  await phone.context().close();
}, 60_000);

it('shows the API docs page (Swagger UI) under its policy: inline styles there, never inline script', async () => {
  const context = await watchedContext();
  const page = await context.newPage();
  await page.goto(`${harness.server.baseUrl}/docs`);
  await page
    .getByRole('heading', { name: /Lectern/ })
    .first()
    .waitFor();
  await page.getByText('/v1/apps', { exact: true }).first().waitFor();
  await context.close();
}, 60_000);

it('works under its Content-Security-Policy: no page reported a violation', () => {
  expect(policyViolations).toEqual([]);
});

it('cannot be framed by a page of another origin (clickjacking)', async () => {
  // The probe's page: another port of the same host framing Settings.
  const framing = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><title>framer</title><iframe src="${harness.server.baseUrl}/settings"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => framing.listen(0, '127.0.0.1', resolve));
  const { port } = framing.address() as { port: number };
  const context = await harness.browser.newContext();
  const refusals: string[] = [];
  context.on('console', (message) => refusals.push(message.text()));
  try {
    const page = await context.newPage();
    const settings = await fetch(`${harness.server.baseUrl}/settings`, { headers: { accept: 'text/html' } });
    expect(settings.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(settings.headers.get('x-frame-options')).toBe('DENY');
    await page.goto(`http://127.0.0.1:${port}/`);
    await expect
      .poll(() => refusals.some((text) => text.includes("frame-ancestors 'none'")), { timeout: 10_000 })
      .toBe(true);
    // The frame holds Chromium's error page, never the console.
    const frame = page.frames().find((each) => each !== page.mainFrame());
    expect(frame?.url()).not.toContain('/settings');
  } finally {
    await context.close();
    await new Promise((resolve) => framing.close(resolve));
  }
}, 60_000);
