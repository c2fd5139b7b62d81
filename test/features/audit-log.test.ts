import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createAuditRepository, createAuditService } from '../../src/features/identity/audit/index.js';
import { type AuditRecord, chainHash } from '../../src/features/identity/audit/record.js';
import { auditLog } from '../../src/features/identity/audit/tables.js';
import { rowsOf } from '../../src/platform/database/connection.js';
import { ownAddressPerSignIn, sameOrigin, signedInPerson, signIn } from '../helpers/people.js';
import { createAction, openEmptyDatabase, request, useTestWorkspace } from '../helpers/test-app.js';

// The audit log (docs/security.md#audit-log): every configuration change and every sign-in appends one record, in
// the same transaction as the change; records are never changed (a trigger refuses it, the hash
// chain shows it) and never hold a secret.
const context = useTestWorkspace(ownAddressPerSignIn);
/** Five records of a system actor, appended one after another. */
async function appendFive(audit: ReturnType<typeof createAuditService>) {
  for (let index = 0; index < 5; index += 1)
    await audit.append({
      workspaceId: null,
      actor: { type: 'system', id: null, label: 'test' },
      action: 'POST /v1/apps',
      status: 201,
      changes: { name: `app ${index}` },
    });
}

/** The audit chain's key in the tests that make their own audit service. */
const chainKey = Buffer.from('a test key for the audit chain, 32 b');

async function records(client: { get(url: string): Promise<{ status: number; body: any }> }, query = '') {
  const answer = await client.get(`/v1/audit_log${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data as any[];
}

describe('what the audit log records', () => {
  it('records each change with its actor, route template, resource and status, newest first', async () => {
    const { person, client } = await signedInPerson(context.test, context.client.workspaceGuid, 'admin');
    const app = await client.post('/v1/apps', { name: 'Audited' });
    await client.put(`/v1/apps/${app.body.guid}`, { name: 'Audited again' });
    const action = await createAction(client, { app: app.body.guid });
    await client.put(`/v1/actions/${action.guid}`, { prompt: 'Changed {{name}}' });
    await client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'production' });
    await client.get('/v1/apps');

    const mine = await records(client, `?actor=${person.id}`);
    expect(mine.map((record) => record.action)).toEqual([
      'POST /v1/actions/{guid}/deploy',
      'PUT /v1/actions/{guid}',
      'POST /v1/actions/create',
      'PUT /v1/apps/{guid}',
      'POST /v1/apps',
      'POST /console/v1/session',
    ]);
    expect(mine[0]).toMatchObject({
      actor: { type: 'user', guid: person.id, label: person.email },
      resource: { type: 'action', guid: action.guid },
      status: 200,
      request_id: expect.any(String),
      ip: expect.any(String),
      changes: { version: 2, environment: 'production' },
    });
    // A version save says what the new version changed, before and after.
    expect(mine[1].changes).toEqual({
      prompt: 'Changed {{name}}',
      version_diff: {
        from_version: 1,
        to_version: 2,
        fields: { prompt: { before: 'Hello {{name}}', after: 'Changed {{name}}' } },
      },
    });
    expect(mine[4]).toMatchObject({ resource: { type: 'app', guid: app.body.guid }, status: 201 });

    const forApp = await records(client, `?resource=${app.body.guid}`);
    expect(forApp.map((record) => record.action)).toEqual(['PUT /v1/apps/{guid}', 'POST /v1/apps']);
    const prefixed = await records(client, `?actor=${person.id}&action=${encodeURIComponent('PUT /v1/')}`);
    expect(prefixed).toHaveLength(2);
    const future = await records(
      client,
      `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(future).toHaveLength(0);
  });

  it('records sign-in failures and sign-outs', async () => {
    const { person, cookie } = await signedInPerson(context.test, context.client.workspaceGuid, 'viewer');
    await signIn(context.test, person.email, 'not the right password');
    await request(context.test.app, 'DELETE', '/console/v1/session', undefined, {
      cookie: cookie!,
      ...sameOrigin,
    });
    const all = await records(context.client, `?action=${encodeURIComponent('DELETE /console')}`);
    expect(all[0]).toMatchObject({ actor: { type: 'user', guid: person.id }, status: 200 });
    // A failure for a member's address is in each of their workspaces: its admins see it.
    const failed = await records(
      context.client,
      `?action=${encodeURIComponent('POST /console/v1/session')}&actor=${person.id}`,
    );
    expect(failed.filter((record: any) => record.status === 401)).toEqual([
      expect.objectContaining({
        actor: { type: 'user', guid: person.id, label: person.email },
        resource: { type: 'session', guid: person.id },
      }),
    ]);
    // One for an address nobody has belongs to no workspace: the operator's, in the log all the same.
    const nobody = `nobody-${randomUUID()}@example.com`;
    await signIn(context.test, nobody, 'not the right password');
    const failures = await context.test.platform.database.database
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorLabel, nobody), eq(auditLog.status, 401)));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      action: 'POST /console/v1/session',
      workspaceId: null,
      actorId: null,
    });
  });

  it('is read by admins and owners only', async () => {
    const { client: developer } = await signedInPerson(
      context.test,
      context.client.workspaceGuid,
      'developer',
    );
    const refused = await developer.get('/v1/audit_log');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await developer.get('/v1/audit_log/export')).status).toBe(403);
  });

  it('exports the filtered records as JSON Lines, newest first', async () => {
    const { person, client } = await signedInPerson(context.test, context.client.workspaceGuid, 'owner');
    for (let index = 0; index < 3; index += 1) await client.post('/v1/apps', { name: `Export ${index}` });
    const exported = await client.get(`/v1/audit_log/export?actor=${person.id}`);
    expect(exported.status).toBe(200);
    const lines = String(typeof exported.body === 'string' ? exported.body : JSON.stringify(exported.body))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.action)).toEqual([
      'POST /v1/apps',
      'POST /v1/apps',
      'POST /v1/apps',
      'POST /console/v1/session',
    ]);
  });
});

describe('the audit log’s guarantees', () => {
  it('never keeps a change without its record: an append the database refuses undoes the change', async () => {
    const { client } = await signedInPerson(context.test, context.client.workspaceGuid, 'admin');
    const library = await client.post('/v1/contexts', { name: 'Audited library', description: 'records' });
    expect(library.status).toBe(201);
    const audit = context.test.app.services.audit;
    const appendStatement = audit.appendStatement;
    // The record is the transaction's last statement and its commit is sent without waiting for it:
    // the database must still roll the change back when the record fails.
    audit.appendStatement = () => sql`SELECT 1 / 0`;
    let failed: { status: number };
    let failedInHandler: { status: number };
    try {
      failed = await client.post('/v1/apps', { name: 'Never stored' });
      // Documents record their change inside the handler (after splitting outside the transaction).
      failedInHandler = await client.post(`/v1/contexts/${library.body.guid}/documents`, {
        content: 'Never stored either.',
      });
    } finally {
      audit.appendStatement = appendStatement;
    }
    expect(failed.status).toBe(500);
    expect(failedInHandler.status).toBe(500);
    const apps = await client.get('/v1/apps?limit=500');
    expect(apps.body.data.map((app: { name: string }) => app.name)).not.toContain('Never stored');
    const documents = await client.get(`/v1/contexts/${library.body.guid}/documents`);
    expect(documents.status).toBe(200);
    expect(documents.body.data ?? documents.body).toHaveLength(0);
  });

  it('never keeps a record without its change: a refused change writes nothing', async () => {
    const { person, client } = await signedInPerson(context.test, context.client.workspaceGuid, 'admin');
    const refused = await client.post('/v1/actions/create', {
      name: 'no app',
      model: 'mock/echo',
      app: crypto.randomUUID(),
    });
    expect(refused.status).toBe(404);
    const mine = await records(client, `?actor=${person.id}`);
    expect(mine.map((record) => record.action)).toEqual(['POST /console/v1/session']);
  });

  it('has no route that changes or deletes a record, and the database refuses it too', async () => {
    const { client } = await signedInPerson(context.test, context.client.workspaceGuid, 'owner');
    const [latest] = await records(client);
    expect((await client.delete(`/v1/audit_log/${latest.guid}`)).status).toBe(404);
    expect((await client.put(`/v1/audit_log/${latest.guid}`, {})).status).toBe(404);
    const database = context.test.platform.database.database;
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(
      await refusal(database.execute(sql`UPDATE ${auditLog} SET status = 599 WHERE id = ${latest.guid}`)),
    ).toMatch(/append-only/);
    expect(await refusal(database.execute(sql`DELETE FROM ${auditLog} WHERE id = ${latest.guid}`))).toMatch(
      /append-only/,
    );
  });

  it('chains every record to the one before: an edit made around the trigger is found', async () => {
    const own = await openEmptyDatabase();
    try {
      const audit = createAuditService({
        repository: createAuditRepository(own.handle.database),
        options: { chainKey },
      });
      for (let index = 0; index < 5; index += 1)
        await audit.append({
          workspaceId: null,
          actor: { type: 'system', id: null, label: 'test' },
          action: `POST /v1/apps`,
          status: 201,
          changes: { name: `app ${index} é 😀 "quoted" \\ back`, nested: { b: 1, a: [1, 2.5] } },
        });
      expect(await audit.verify()).toEqual({ records: 5, intact: true });
      const database = own.handle.database;
      await database.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`);
      await database.execute(sql`UPDATE audit_log SET changes = '{"name":"forged"}' WHERE position = 3`);
      const check = await audit.verify();
      expect(check).toMatchObject({ intact: false, brokenAt: 3, records: 2 });
    } finally {
      await own.drop();
    }
  });

  it('keys the chain: an edit with every later hash recomputed, or a head moved back over deleted records, is found', async () => {
    for (const tamper of ['recomputed unkeyed', 'recomputed under another key', 'head moved back'] as const) {
      const own = await openEmptyDatabase();
      try {
        const repository = createAuditRepository(own.handle.database);
        const audit = createAuditService({ repository, options: { chainKey } });
        await appendFive(audit);
        expect(await audit.verify()).toEqual({ records: 5, intact: true });
        const database = own.handle.database;
        await database.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`);
        if (tamper === 'head moved back') {
          // The newest two deleted, and the head set to the last record left: a consistent chain.
          await database.execute(sql`DELETE FROM audit_log WHERE position > 3`);
          await database.execute(
            sql`UPDATE audit_chain SET hash = (SELECT hash FROM audit_log WHERE position = 3) WHERE id = 1`,
          );
        } else {
          // Record 3 forged, and every hash from it on recomputed as the chain's own formula would.
          const forgingKey = tamper === 'recomputed unkeyed' ? undefined : Buffer.from('not the chain key');
          const rows = await repository.chainAfter(0, 10);
          let previous = rows[1]!.hash;
          for (const row of rows.slice(2)) {
            const { position, previousHash: _previous, hash: _hash, keyed: _keyed, ...fields } = row;
            const changes = position === 3 ? { name: 'forged' } : fields.changes;
            const hash = chainHash(previous, { ...fields, changes } as AuditRecord, forgingKey);
            await database.execute(sql`UPDATE audit_log SET changes = ${JSON.stringify(changes)}::jsonb,
              previous_hash = ${previous}, hash = ${hash}, keyed = ${forgingKey !== undefined}
              WHERE position = ${position}`);
            previous = hash;
          }
          await database.execute(sql`UPDATE audit_chain SET hash = ${previous} WHERE id = 1`);
        }
        const check = await audit.verify();
        expect(check.intact, tamper).toBe(false);
        expect(check, tamper).toMatchObject(
          tamper === 'head moved back'
            ? { brokenAt: 4, problem: expect.stringMatching(/head was moved/) }
            : { brokenAt: 3, problem: 'its content was changed' },
        );
      } finally {
        await own.drop();
      }
    }
  });

  it('lets only retention’s prune delete: a setting anyone can make, or another key, deletes nothing', async () => {
    const own = await openEmptyDatabase();
    try {
      const audit = createAuditService({
        repository: createAuditRepository(own.handle.database),
        options: { chainKey },
      });
      await appendFive(audit);
      const database = own.handle.database;
      const attempts = [
        sql`SELECT set_config('lectern.audit_pruning', 'on', true)`,
        sql`SELECT set_config('lectern.audit_pruning_key', ${Buffer.alloc(64, 7).toString('hex')}, true)`,
      ];
      for (const setting of attempts) {
        const refused = await database
          .transaction(async (transaction) => {
            await transaction.execute(setting);
            await transaction.execute(sql`DELETE FROM audit_log WHERE position = 1`);
          })
          .catch((error: Error) => error);
        expect(String((refused as Error).cause ?? refused)).toMatch(/append-only: DELETE is refused/);
      }
      expect(await audit.verify()).toEqual({ records: 5, intact: true });
    } finally {
      await own.drop();
    }
  });

  it('finds the newest records removed, and the oldest removed without a retention cut; a cut is a record', async () => {
    for (const removed of ['newest', 'oldest'] as const) {
      const own = await openEmptyDatabase();
      try {
        const audit = createAuditService({
          repository: createAuditRepository(own.handle.database),
          options: { chainKey },
        });
        await appendFive(audit);
        const database = own.handle.database;
        await database.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`);
        const order = removed === 'newest' ? sql`DESC` : sql`ASC`;
        await database.execute(
          sql`DELETE FROM audit_log WHERE position IN (SELECT position FROM audit_log ORDER BY position ${order} LIMIT 2)`,
        );
        const check = await audit.verify();
        expect(check.intact, removed).toBe(false);
        expect(check.problem).toMatch(
          removed === 'newest'
            ? /newest records were removed/
            : /oldest records were removed, and no retention cut/,
        );
      } finally {
        await own.drop();
      }
    }
    // Retention removes the oldest through the service: the cut is a record of its own, and the chain holds.
    const own = await openEmptyDatabase();
    try {
      let clock = new Date('2026-01-01T00:00:00Z');
      const audit = createAuditService({
        repository: createAuditRepository(own.handle.database),
        options: {
          chainKey,
          now: () => clock,
        },
      });
      await appendFive(audit);
      clock = new Date('2026-03-01T00:00:00Z');
      await appendFive(audit);
      expect(await audit.prune(30)).toBe(5);
      expect(await audit.verify()).toEqual({ records: 6, intact: true });
      const [cut] = rowsOf<{ changes: Record<string, unknown> }>(
        await own.handle.database.execute(
          sql`SELECT changes FROM audit_log WHERE action = 'DELETE audit_log (retention)'`,
        ),
      );
      expect(cut!.changes).toMatchObject({ removed: 5, removed_through_position: 5 });
    } finally {
      await own.drop();
    }
  });

  it('never holds a secret: keys, provider keys, passwords and Skill headers stay out', async () => {
    const canary = `canary-${crypto.randomUUID()}`;
    const { person, client } = await signedInPerson(context.test, context.client.workspaceGuid, 'owner');
    await client.post('/v1/providers', { provider: 'openai', key: `sk-${canary}` });
    const key = await client.post('/v1/api_keys', { name: 'canary key' });
    const workspaceKey = await client.post(`/v1/workspace/${context.client.workspaceGuid}/api_keys`, {});
    await client.post('/v1/skills', {
      name: 'with headers',
      type: 'http_request',
      metadata: [
        { name: 'url', value: `https://api.example.com/{{input}}?units=metric&api_key=k-${canary}` },
        { name: 'headers', value: { 'X-Weather': `h-${canary}` } },
      ],
    });
    // A presigned URL's signature and a token in a query string are credentials too.
    const library = await client.post('/v1/contexts', { name: 'signed', description: 'urls' });
    await client.post(`/v1/contexts/${library.body.guid}/context_sources`, {
      url: `https://bucket.example.com/report.pdf?X-Amz-Credential=c&X-Amz-Signature=s-${canary}&token=t-${canary}`,
    });
    await client.put('/v1/me/password', { current_password: person.password, new_password: `p-${canary}` });
    const invited = await client.post('/v1/members', { email: `${Date.now()}@example.com`, role: 'viewer' });
    const token = new URL(invited.body.invite_url).searchParams.get('token')!;
    await request(
      context.test.app,
      'POST',
      '/console/v1/invitations/accept',
      { token, password: `i-${canary}` },
      sameOrigin,
    );
    await signIn(context.test, person.email, `wrong-${canary}`);

    const everything = JSON.stringify(
      (await context.test.platform.database.database.select().from(auditLog)) as unknown[],
    );
    expect(everything).toContain('POST /v1/providers');
    expect(everything).toContain('units=metric&api_key=[redacted]');
    for (const secret of [canary, key.body.api_key, workspaceKey.body.api_key, token])
      expect(everything).not.toContain(secret);
    expect(context.test.logs.join('\n')).not.toContain(canary);
  });
});
