import { BadRequestError, Lectern, LecternError, Prompt } from '@lectern/client';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSdkWorkspace } from '../helpers/klu-sdk.js';
import { createAction } from '../helpers/test-app.js';

// The client renders a deployed version with the service's own template rules: for any template
// and input, its messages are byte for byte those the service renders for a run of that version
// (`gateway_payload` answers them without calling a model), and an input the service refuses is
// refused by the client with the same message.
const sdk = useSdkWorkspace();
let client: Lectern;
beforeAll(() => {
  client = new Lectern({ baseUrl: `http://127.0.0.1:${sdk.port}`, apiKey: sdk.context.client.apiKey });
});

const names = ['v0', 'v1', 'v2'] as const;
const text = fc
  .string({
    unit: fc.constantFrom('a', 'Z', ' ', '\n', 'é', '€', '😀', '"', "'", '<', '&', '\\', '}', '%', '-'),
  })
  .filter((value) => !/\{[{%]|[}%]\}/.test(value));
const name = fc.constantFrom(...names);
const piece = fc.oneof(
  text,
  name.map((variable) => `{{ ${variable} }}`),
  name.map((variable) => `{{${variable} | upcase}}`),
  name.map((variable) => `{{ ${variable} | size }}`),
  name.map((variable) => `{{ ${variable} | default: "none" }}`),
  fc
    .tuple(name, text, text)
    .map(([variable, yes, no]) => `{% if ${variable} %}${yes}{% else %}${no}{% endif %}`),
  text.map((body) => `{% for item in items %}{{ item }}${body}{% endfor %}`),
);
// Snippets: each sample gives the two snippets new text, which the next saved version pins.
const snippetBody = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));
const include = fc.constantFrom(
  "{% include 'parity-a' %}",
  "{%- include 'parity-a' -%}",
  "{% include 'parity-b' -%}",
  "{%- include 'parity-b' %}",
);
const template = fc.array(fc.oneof(piece, include), { maxLength: 6 }).map((pieces) => pieces.join(''));
const value = fc.oneof(text, fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constant(''));
const variables = fc.record(
  { v0: value, v1: value, v2: value, items: fc.array(text, { maxLength: 3 }) },
  { requiredKeys: [] },
);
const version = fc.record({
  prompt: fc.option(template, { nil: undefined }),
  system_message: fc.option(template, { nil: undefined }),
  messages: fc.option(
    fc.array(fc.record({ role: fc.constantFrom('system', 'user', 'assistant'), content: template }), {
      minLength: 1,
      maxLength: 2,
    }),
    { nil: undefined },
  ),
});
const input = fc.oneof(variables, text);

async function refusal(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    if (error instanceof LecternError) return `${error.constructor.name}: ${error.serverMessage}`;
    throw error;
  }
}

describe('Prompt.render against the service’s rendering', () => {
  it('gives byte-identical messages, and the same refusals, for any template, snippets and input', async () => {
    const action = await createAction(sdk.context.client, { prompt: 'start' });
    for (const name of ['parity-a', 'parity-b'])
      expect((await sdk.context.client.post('/v1/snippets', { name, content: '' })).status).toBe(201);
    let versionNumber = 1;
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(version, input, snippetBody, snippetBody, async (fields, runInput, a, b) => {
        if (
          fields.prompt === undefined &&
          fields.system_message === undefined &&
          fields.messages === undefined
        )
          return;
        // A snippet text that does not parse is refused; the snippet keeps the text it had.
        await sdk.context.client.put('/v1/snippets/parity-a', { content: a });
        await sdk.context.client.put('/v1/snippets/parity-b', { content: b });
        const saved = await sdk.context.client.put(`/v1/actions/${action.guid}`, {
          prompt: fields.prompt ?? null,
          system_message: fields.system_message ?? null,
          messages: fields.messages ?? null,
        });
        // A template the service refuses to save (a parse error) is nothing to render.
        if (saved.status !== 200) return;
        versionNumber += 1;
        await client.request('POST /v1/actions/{guid}/deploy', {
          path: { guid: action.guid },
          body: { version: versionNumber, environment: 'parity' },
        });
        const prompt = new Prompt(
          await client.request('GET /v1/prompts/{guidOrSlug}', {
            path: { guidOrSlug: action.guid },
            query: { environment: 'parity' },
          }),
        );
        expect(prompt.version).toBe(versionNumber);
        const server = client.request('POST /v1/actions/{guidOrSlug}/gateway_payload', {
          path: { guidOrSlug: action.guid },
          body: { input: runInput, environment: 'parity' },
        });
        const rendered = prompt.render(runInput);
        const [serverRefusal, clientRefusal] = await Promise.all([refusal(server), refusal(rendered)]);
        expect(clientRefusal === undefined ? undefined : clientRefusal.replace(/^\w+/, 'Refused')).toBe(
          serverRefusal === undefined ? undefined : serverRefusal.replace(/^\w+/, 'Refused'),
        );
        if (serverRefusal === undefined) {
          expect(JSON.stringify((await rendered).messages)).toBe(JSON.stringify((await server).messages));
          compared += 1;
        }
      }),
      { numRuns: 100 },
    );
    // Most samples render (refusals are the minority): the property compared real output.
    expect(compared).toBeGreaterThan(20);
  }, 120_000);

  it('refuses a missing variable as a BadRequestError naming it, without the network', async () => {
    const prompt = new Prompt({
      ...(await client.request('GET /v1/prompts/{guidOrSlug}', {
        path: { guidOrSlug: (await createAction(sdk.context.client, { prompt: 'Hi {{who}}' })).guid },
      })),
    });
    await expect(prompt.render({})).rejects.toThrow(BadRequestError);
    await expect(prompt.render({})).rejects.toThrow('missing template variable "who"');
    expect((await prompt.render('Ada')).messages).toEqual([{ role: 'user', content: 'Hi Ada' }]);
  });
});
