import { expect, it } from 'vitest';
import { createIngestTurns } from '../../src/features/observability/traces/ingest-turns.js';

// Trace batches take turns by workspace (docs/operations.md#traces): one workspace's flood of
// exports does not hold back another's, and past the waiting line an export is told to retry.

/** A batch that finishes when told to, recording when it started. */
function batch(log: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

it('serves waiting workspaces in turn, and answers 429 once the line is full', async () => {
  const turns = createIngestTurns({ concurrent: 1, waiting: 4 });
  const started: string[] = [];
  const first = batch(started, 'a1');
  const floods = [batch(started, 'a2'), batch(started, 'a3'), batch(started, 'a4')];
  const other = batch(started, 'b1');
  const running = turns.take('a', first.work);
  const waiting = floods.map((each) => turns.take('a', each.work));
  const otherDone = turns.take('b', other.work);
  expect(turns.load).toEqual({ running: 1, queued: 4 });
  await expect(turns.take('c', async () => 'c1')).rejects.toMatchObject({ status: 429, code: 'ingest_busy' });

  for (const each of [first, ...floods, other]) each.finish();
  await Promise.all([running, ...waiting, otherDone]);
  // Workspace b's one batch went second, not behind all of a's.
  expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  expect(turns.load).toEqual({ running: 0, queued: 0 });
});
