import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createTraceRepository, createTraceService } from '../../src/features/observability/traces/index.js';
import { receivedSpans } from '../../src/features/observability/traces/received-spans.js';
import { rowsOf } from '../../src/platform/database/connection.js';
import { newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Retention (docs/traces.md#retention): spans older than LECTERN_TRACE_RETENTION_DAYS go a whole
// day at a time (the day's partition is dropped), their traces with them; newer days stay. The
// service's clock is moved forward here instead of waiting a month.
const context = useTestWorkspace();

const dayMs = 86_400_000;

function exportOf(startMs: number) {
  const traceId = randomBytes(16).toString('hex');
  const start = BigInt(startMs) * 1_000_000n;
  return {
    traceId,
    request: {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: randomBytes(8).toString('hex'),
                  name: 'kept a while',
                  startTimeUnixNano: String(start),
                  endTimeUnixNano: String(start + 1_000_000n),
                },
              ],
            },
          ],
        },
      ],
    },
  };
}

it('drops the days past the retention with their traces, keeps the rest, and refuses spans older than it', async () => {
  const { test } = context;
  const client = await newWorkspace(test);
  const workspaceId = (await test.app.services.workspaces.authenticate(client.apiKey))!.workspace.id;
  const database = test.platform.database.database;
  let now = Date.now();
  const traces = createTraceService({
    repository: createTraceRepository(database),
    tracing: test.platform.tracing,
    findAction: async () => undefined,
    generationsInsert: test.app.services.generations.tracedInsert,
    generationsStored: async () => undefined,
    attachGenerations: async () => undefined,
    priceOf: async () => undefined,
    retentionDays: 3,
    now: () => new Date(now),
  });
  const old = exportOf(now - 2 * dayMs);
  const recent = exportOf(now);
  for (const each of [old, recent])
    expect((await traces.ingest(workspaceId, receivedSpans(each.request))).rejected).toBe(0);
  const tooOld = await traces.ingest(workspaceId, receivedSpans(exportOf(now - 5 * dayMs).request));
  expect(tooOld).toMatchObject({
    rejected: 1,
    message: expect.stringContaining('before the 3 days traces are kept'),
  });

  const partitionOf = (startMs: number) => `spans_d${Math.floor(startMs / dayMs)}`;
  const exists = async (name: string) =>
    rowsOf(await database.execute(sql`SELECT 1 FROM pg_class WHERE relname = ${name}`)).length > 0;
  expect(await exists(partitionOf(now - 2 * dayMs))).toBe(true);

  // Two days on, the older span is past the retention; the recent one is not.
  now += 2 * dayMs;
  const removed = await traces.removeExpired();
  expect(removed.traces).toBeGreaterThanOrEqual(1);
  expect(await exists(partitionOf(now - 4 * dayMs))).toBe(false);
  await expect(traces.get(workspaceId, old.traceId)).rejects.toThrow('Trace not found');
  const kept = await traces.get(workspaceId, recent.traceId);
  expect(kept.spans).toHaveLength(1);
  expect((await client.get(`/v1/traces/${old.traceId}`)).status).toBe(404);
  expect((await client.get(`/v1/traces/${recent.traceId}`)).status).toBe(200);
});
