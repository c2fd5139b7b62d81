import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { auditLog } from '../../src/features/identity/audit/tables.js';
import { ownAddressPerSignIn, signedInPerson } from '../helpers/people.js';
import {
  createResources,
  documentedRoutes,
  fillPath,
  type Resources,
  type Route,
} from '../helpers/route-walk.js';
import { type Client, clientFor, request, useTestWorkspace } from '../helpers/test-app.js';

// Every route states the right it needs, and for each role every route it lacks the right for
// answers 403 forbidden and changes nothing — routes added later included, without editing this file.
const context = useTestWorkspace(ownAddressPerSignIn, { ownJobQueue: true });
let routes: Route[];
let resources: Resources;

beforeAll(async () => {
  routes = await documentedRoutes(context.test);
  resources = await createResources(context.client);
}, 60_000);

/** What every list of the workspace counts, and how many audit records exist. */
async function inventory(): Promise<string> {
  const counts: string[] = [];
  for (const route of routes) {
    if (route.method !== 'GET' || route.path.includes('{') || !route.path.startsWith('/v1/')) continue;
    const answer = await context.client.get(route.path);
    const count = answer.body?.total_count ?? (Array.isArray(answer.body) ? answer.body.length : undefined);
    if (count !== undefined) counts.push(`${route.path}=${count}`);
  }
  const [records] = await context.test.platform.database.database
    .execute(sql`SELECT count(*)::int AS n FROM ${auditLog}`)
    .then((result) => (result as unknown as { rows: { n: number }[] }).rows);
  return `${counts.join(' ')} audit=${records!.n}`;
}

async function walkRefusals(caller: Client, cookie?: string) {
  const me = await caller.get('/v1/me');
  expect(me.status).toBe(200);
  const held = new Set<string>(me.body.rights);
  const refused = routes.filter(
    (route) => route.right && !['public', 'operator'].includes(route.right) && !held.has(route.right),
  );
  expect(refused.length).toBeGreaterThan(0);
  const before = await inventory();
  const wrong: string[] = [];
  for (const route of refused) {
    const path = fillPath(route.path, resources);
    const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) && route.body !== undefined;
    const answer = cookie
      ? await caller.request(route.method, path, hasBody ? {} : undefined)
      : await request(context.test.app, route.method, path, hasBody ? {} : undefined, {
          authorization: `Bearer ${caller.apiKey}`,
        });
    if (answer.status !== 403 || answer.body?.error?.code !== 'forbidden')
      wrong.push(`${route.method} ${route.path} (${route.right}) → ${answer.status}`);
  }
  expect(wrong).toEqual([]);
  expect(await inventory()).toBe(before);
  return refused.length;
}

describe('rights on every route', () => {
  it('has every route of /openapi.json state its right', () => {
    const missing = routes.filter((route) => !route.right).map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
  });

  // An admin lacks only `manage_owners`, which the member routes check themselves (people.test.ts).
  for (const role of ['reviewer', 'viewer', 'developer'] as MemberRole[]) {
    it(`refuses a signed-in ${role} every route beyond the role with 403, changing nothing`, async () => {
      const { client, cookie } = await signedInPerson(context.test, context.client.workspaceGuid, role);
      await walkRefusals(client, cookie);
    });
  }

  for (const role of ['runner', 'viewer', 'developer'] as const) {
    it(`refuses a ${role} key every route beyond its role with 403, changing nothing`, async () => {
      const { client: maker } = await signedInPerson(context.test, context.client.workspaceGuid, 'admin');
      const key = await maker.post('/v1/api_keys', { name: `${role} walk`, role });
      expect(key.status).toBe(201);
      const refusedCount = await walkRefusals(
        clientFor(context.test.app, key.body.api_key, context.client.workspaceGuid),
      );
      if (role === 'runner') expect(refusedCount).toBeGreaterThan(80);
    });
  }

  it('lets an owner call every route a role may', async () => {
    const { client } = await signedInPerson(context.test, context.client.workspaceGuid, 'owner');
    const me = await client.get('/v1/me');
    const rights = new Set(me.body.rights);
    for (const route of routes)
      if (route.right && !['public', 'operator'].includes(route.right))
        expect(rights.has(route.right)).toBe(true);
  });
});
