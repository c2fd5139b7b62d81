import { beforeAll, describe, expect, it } from 'vitest';
import {
  createResources,
  documentedRoutes,
  exampleOf,
  fillPath,
  propertiesOfType,
  type Resources,
  type Route,
} from '../helpers/route-walk.js';
import { type Client, newWorkspace, request, useTestWorkspace } from '../helpers/test-app.js';

// The standing suite: every route of /openapi.json — those added later too, without editing this
// file — refuses a missing or wrong key (401), never shows or changes another workspace's resources
// (404), and answers abusive input (NUL, oversized strings, deep JSON, huge integers) with a 4xx,
// never a 5xx, storing nothing.

// The walk queues many jobs (documents to embed, sources to fetch): on PostgreSQL they stay in a
// queue of their own instead of holding up every other file's.
const context = useTestWorkspace({}, { ownJobQueue: true });
let routes: Route[];
let own: Resources;
let victim: Client;
let foreign: Resources;

beforeAll(async () => {
  routes = await documentedRoutes(context.test);
  own = await createResources(context.client);
  victim = await newWorkspace(context.test);
  foreign = await createResources(victim);
}, 60_000);

type Answer = { route: string; status: number; message?: string };

async function send(
  route: Route,
  path: string,
  body: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${context.client.apiKey}` },
): Promise<Answer> {
  const hasBody = route.body !== undefined && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
  const answer = await request(
    context.test.app,
    route.method,
    path,
    hasBody ? (body ?? {}) : undefined,
    headers,
  );
  return {
    route: `${route.method} ${path.slice(0, 120)}`,
    status: answer.status,
    message: answer.body?.message,
  };
}

/** 501 is the documented answer of a capability Lectern does not have (an SDK method), not a failure. */
const failures = (answers: Answer[]) =>
  answers.filter((answer) => answer.status >= 500 && answer.status !== 501);

const withPathParameters = () => routes.filter((route) => route.path.includes('{'));

/** What every list route of the workspace counts: nothing may be added by refused requests. */
async function inventory(client: Client): Promise<string> {
  // Runs' spans are stored in the background: store what is waiting, so the count is settled.
  await context.test.platform.tracing.flush();
  const counts: string[] = [];
  for (const route of routes) {
    if (route.method !== 'GET' || route.path.includes('{') || !route.authenticated) continue;
    const answer = await client.get(route.path);
    const count = answer.body?.total_count ?? (Array.isArray(answer.body) ? answer.body.length : undefined);
    if (count !== undefined) counts.push(`${route.path}=${count}`);
  }
  return counts.join(' ');
}

describe('the route table walk', () => {
  it('covers the documented API', () => {
    expect(routes.length).toBeGreaterThan(100);
  });

  it('answers 401 to every authenticated route without a key or with a wrong one', async () => {
    const answers: Answer[] = [];
    for (const route of routes) {
      const path = fillPath(route.path, own);
      const body = exampleOf(route.body, own);
      const wrongKey = { authorization: 'Bearer lec_not-a-key-of-this-instance-000000000' };
      for (const headers of [{}, wrongKey] as Record<string, string>[]) {
        answers.push({ ...(await send(route, path, body, headers)), route: `${route.method} ${route.path}` });
      }
    }
    const authenticated = answers.filter(
      (answer) => routes.find((route) => `${route.method} ${route.path}` === answer.route)?.authenticated,
    );
    expect(authenticated.filter((answer) => answer.status !== 401)).toEqual([]);
    expect(failures(answers)).toEqual([]);
  }, 120_000);

  it("never shows or changes another workspace's resources: 404", async () => {
    const before = await inventory(victim);
    const answers: Answer[] = [];
    for (const route of withPathParameters().filter((each) => each.authenticated)) {
      answers.push(await send(route, fillPath(route.path, foreign), exampleOf(route.body, own)));
    }
    // With a body that validation refuses first the answer is a 400; every other answer is a 404.
    const refusedBody = (answer: Answer) =>
      answer.status === 400 && /^Validation failed/.test(answer.message ?? '');
    expect(answers.filter((answer) => answer.status !== 404 && !refusedBody(answer))).toEqual([]);
    expect(answers.filter((answer) => answer.status === 404).length).toBeGreaterThan(answers.length * 0.9);
    expect(await inventory(victim)).toBe(before);
    for (const [kind, guid] of Object.entries(foreign)) {
      const route = routes.find(
        (each) =>
          each.method === 'GET' && each.authenticated && fillPath(each.path, foreign).endsWith(`/${guid}`),
      );
      if (!route) continue;
      expect((await victim.get(fillPath(route.path, foreign))).status, kind).toBe(200);
    }
  }, 120_000);

  it('refuses NUL in any body field, query parameter or path parameter with a 4xx, storing nothing', async () => {
    const before = await inventory(context.client);
    const answers: Answer[] = [];
    for (const route of routes) {
      const path = fillPath(route.path, own);
      for (const field of propertiesOfType(route.body, ['string'])) {
        const body = { ...(exampleOf(route.body, own) as object), [field]: 'a\u0000b' };
        answers.push(await send(route, path, body));
      }
      for (const parameter of route.query) {
        answers.push(await send(route, `${path}?${parameter}=a%00b`, exampleOf(route.body, own)));
      }
      if (route.path.includes('{')) {
        answers.push(await send(route, fillPath(route.path, own, 'a%00b'), exampleOf(route.body, own)));
      }
    }
    expect(answers.length).toBeGreaterThan(200);
    expect(answers.filter((answer) => answer.status < 400 || answer.status >= 500)).toEqual([]);
    expect(await inventory(context.client)).toBe(before);
  }, 120_000);

  it('answers deep JSON with a 400 storing nothing, and huge integers and oversized strings never with a 5xx', async () => {
    const before = await inventory(context.client);
    const deepAnswers: Answer[] = [];
    const answers: Answer[] = [];
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const withBody = routes.filter((each) => each.body !== undefined);
    for (const route of withBody) {
      const example = exampleOf(route.body, own) as object;
      const [first] = Object.keys(example);
      // As text: JSON.stringify itself cannot write what a hostile client can.
      const text = JSON.stringify({ ...example, [first ?? 'deep']: '__deep__' }).replace('"__deep__"', deep);
      deepAnswers.push(await send(route, fillPath(route.path, own), text));
    }
    expect(deepAnswers.filter((answer) => answer.status !== 400)).toEqual([]);
    // Checked before the huge values below, some of which are valid and stored (a long `output`).
    expect(await inventory(context.client)).toBe(before);
    for (const route of withBody) {
      const path = fillPath(route.path, own);
      const example = exampleOf(route.body, own) as object;
      for (const field of propertiesOfType(route.body, ['integer', 'number'])) {
        for (const huge of [99_999_999_999, 1e300, -99_999_999_999]) {
          answers.push(await send(route, path, { ...example, [field]: huge }));
        }
      }
      for (const field of propertiesOfType(route.body, ['string'])) {
        answers.push(await send(route, path, { ...example, [field]: 'x'.repeat(200_001) }));
      }
    }
    expect(answers.length).toBeGreaterThan(100);
    expect(failures(answers)).toEqual([]);
  }, 180_000);
});
