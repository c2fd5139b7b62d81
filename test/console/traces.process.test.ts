import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { expectAccessible, screenshot, useConsole } from '../helpers/console-browser.js';
import { keyedCaller } from '../helpers/lectern-process.js';
import { eventually } from '../helpers/test-app.js';

// Traces in Chromium: the empty page tells how to send traces; an application's trace (sent over
// OTLP/JSON) is listed with its cost, its waterfall opens at the model call, whose messages show as
// a chat with links to the generation and the prompt version; a run's trace shows Lectern's spans;
// a generation links to its trace.
const apiKey = 'lec_console_traces_key_0123456789abcdefghij';
const call = keyedCaller(apiKey);
const harness = useConsole({ apiKey, environment: { LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '1000' } });

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const attribute = (key: string, value: string | number) => ({
  key,
  value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value },
});

/** An agent's turn as an application's OpenTelemetry SDK would export it. */
function agentTurn(traceId: string, slug: string) {
  const start = BigInt(Date.now() - 5_000) * 1_000_000n;
  const ms = (value: number) => String(start + BigInt(value) * 1_000_000n);
  const root = hex(8);
  const retrieval = hex(8);
  const model = hex(8);
  const span = (
    spanId: string,
    parent: string | undefined,
    name: string,
    from: number,
    to: number,
    extra = {},
  ) => ({
    traceId,
    spanId,
    ...(parent && { parentSpanId: parent }),
    name,
    kind: parent ? 1 : 2,
    startTimeUnixNano: ms(from),
    endTimeUnixNano: ms(to),
    ...extra,
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [attribute('service.name', 'support-bot')] },
        scopeSpans: [
          {
            scope: { name: 'app' },
            spans: [
              span(root, undefined, 'POST /tickets/answer', 0, 1_400, {
                attributes: [
                  attribute('lectern.action', slug),
                  attribute('lectern.version', 1),
                  attribute('session.id', 'ticket-42'),
                ],
              }),
              span(retrieval, root, 'search orders', 20, 180, {
                attributes: [attribute('db.system', 'postgresql')],
                events: [
                  { name: 'cache miss', timeUnixNano: ms(25), attributes: [attribute('key', 'order:7')] },
                ],
              }),
              span(model, root, 'chat gpt-4o-mini', 200, 1_350, {
                kind: 3,
                attributes: [
                  attribute('gen_ai.operation.name', 'chat'),
                  attribute('gen_ai.provider.name', 'openai'),
                  attribute('gen_ai.request.model', 'gpt-4o-mini'),
                  attribute('gen_ai.usage.input_tokens', 420),
                  attribute('gen_ai.usage.output_tokens', 64),
                  attribute(
                    'gen_ai.input.messages',
                    JSON.stringify([
                      { role: 'system', parts: [{ type: 'text', content: 'You answer parcel questions.' }] },
                      { role: 'user', parts: [{ type: 'text', content: 'Where is order 7?' }] },
                    ]),
                  ),
                  attribute(
                    'gen_ai.output.messages',
                    JSON.stringify([
                      { role: 'assistant', parts: [{ type: 'text', content: 'Order 7 ships today.' }] },
                    ]),
                  ),
                ],
              }),
              span(hex(8), root, 'send email', 1_360, 1_390, {
                status: { code: 2, message: 'SMTP timeout' },
              }),
            ],
          },
        ],
      },
    ],
  };
}

it('lists traces, draws one as a waterfall with the model call as a chat, and links generations and traces', async () => {
  const { baseUrl } = harness.server;
  const page = await harness.signedInPage();
  await page.getByRole('link', { name: 'Traces' }).click();
  await page.getByRole('heading', { name: 'No traces yet' }).waitFor();
  await expect(page.getByText('OTEL_EXPORTER_OTLP_ENDPOINT=').count()).resolves.toBe(1);
  await expectAccessible(page, 'traces (empty)');

  const action = (
    await call(baseUrl, 'POST', '/v1/actions/create', {
      name: 'Parcel answers',
      model: 'mock/echo',
      prompt: 'Answer {{question}}',
      app: (await call(baseUrl, 'POST', '/v1/apps', { name: 'Support' })).body.guid,
    })
  ).body;
  const traceId = hex(16);
  const sent = await call(baseUrl, 'POST', '/v1/otel/v1/traces', agentTurn(traceId, action.slug));
  expect(sent.status).toBe(200);
  // A run of Lectern's own is a trace too.
  const run = await call(baseUrl, 'POST', `/v1/actions/${action.guid}/prompt`, { input: { question: 'hi' } });
  const runTrace = (await call(baseUrl, 'GET', `/v1/data/${run.body.data_guid}`)).body.trace_id;
  await eventually(async () => {
    const found = await call(baseUrl, 'GET', `/v1/traces/${runTrace}`);
    return found.status === 200 && found.body.spans.length >= 2 ? true : undefined;
  });

  await page.reload();
  const table = page.getByRole('table', { name: 'Traces' });
  await table.getByRole('link', { name: 'POST /tickets/answer' }).waitFor();
  await table.getByRole('link', { name: `run ${action.slug}` }).waitFor();
  await expectAccessible(page, 'traces');
  await screenshot(page, 'traces');

  await page.getByLabel('Status').selectOption('ERROR');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(table.getByRole('row').count()).resolves.toBeGreaterThan(0);
  await eventually(async () => ((await table.getByRole('row').count()) === 2 ? true : undefined));
  await table.getByRole('link', { name: 'POST /tickets/answer' }).click();

  // The trace opens at its model call: the chat, and links to its generation and prompt version.
  await page.getByRole('heading', { name: 'POST /tickets/answer' }).waitFor();
  const details = page.getByRole('region', { name: 'chat gpt-4o-mini' });
  const chat = details.getByRole('list', { name: 'Messages' });
  await chat.getByText('Order 7 ships today.').waitFor();
  await chat.getByText('Where is order 7?').waitFor();
  await details.getByRole('link', { name: /Parcel answers/ }).waitFor();
  const spans = page.getByRole('list', { name: 'Spans' });
  await expect(spans.getByRole('button').count()).resolves.toBe(4);
  await expectAccessible(page, 'trace waterfall');
  await screenshot(page, 'trace-waterfall');

  // Keyboard: another span's attributes and events.
  await spans.getByRole('button', { name: /search orders/ }).focus();
  await page.keyboard.press('Enter');
  const retrieval = page.getByRole('region', { name: 'search orders' });
  await retrieval.getByText('cache miss').waitFor();
  await retrieval.getByText('db.system').waitFor();

  // The generation links back to its trace.
  await page.getByRole('region', { name: 'search orders' }).waitFor();
  await spans.getByRole('button', { name: /chat gpt-4o-mini/ }).click();
  await page.getByRole('link', { name: 'Open the generation' }).click();
  const drawer = page.getByRole('dialog', { name: 'Generation' });
  await drawer.getByRole('link', { name: 'Open the trace' }).waitFor();
  await expectAccessible(page, 'generation with its trace');
  await screenshot(page, 'generation-trace-link');
  await drawer.getByRole('link', { name: 'Open the trace' }).click();
  await page.getByRole('heading', { name: 'POST /tickets/answer' }).waitFor();

  // A session's page lists the traces of its turns.
  const session = (await call(baseUrl, 'POST', '/v1/sessions', { action: action.guid, name: 'Ticket 42' }))
    .body;
  const turn = await call(baseUrl, 'POST', `/v1/actions/${action.guid}/prompt`, {
    input: { question: 'and now?' },
    session: session.guid,
  });
  const turnTrace = (await call(baseUrl, 'GET', `/v1/data/${turn.body.data_guid}`)).body.trace_id;
  await eventually(async () =>
    (await call(baseUrl, 'GET', `/v1/traces/${turnTrace}`)).status === 200 ? true : undefined,
  );
  await page.goto(`${baseUrl}/sessions/${session.guid}`);
  const tracesLine = page.getByText('Traces of its turns:');
  await tracesLine.waitFor();
  await expectAccessible(page, 'session with its traces');
  await screenshot(page, 'session-traces');
  await tracesLine.getByRole('link').first().click();
  await page.getByRole('heading', { name: `run ${action.slug}` }).waitFor();
  await page.context().close();
}, 90_000);
