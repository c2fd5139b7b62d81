import { describe, expect, it } from 'vitest';
import { prose } from '../helpers/documents.js';
import { createAction, eventually, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// The probe's finding: while workspace A loaded four 4 MB Documents, workspace B's mock/echo async
// run stayed PENDING for more than 420 s (0.2 s on an idle queue): A's four embedding jobs filled
// every job slot for up to 15 minutes each. Bulk work now has slots of its own, split into jobs of
// one embedding batch, and workspaces take turns within a lane.
const context = useTestWorkspace({}, { startJobs: true, ownJobQueue: true });

describe('one workspace’s bulk work and another’s runs', () => {
  it('finishes B’s async run in under 2 s while A’s four 4 MB Documents are being embedded', async () => {
    const heavy = context.client;
    const light = await newWorkspace(context.test);
    const library = await heavy.post('/v1/contexts', { name: 'bulk load', description: 'four large texts' });
    const adds = await Promise.all(
      [0, 1, 2, 3].map((part) =>
        heavy.post(`/v1/contexts/${library.body.guid}/documents`, {
          content: `Part ${part}. ${prose(4_000_000)}`,
        }),
      ),
    );
    expect(adds.map((added) => added.status)).toEqual([200, 200, 200, 200]);
    const chunks = adds.reduce((total, added) => total + added.body.docs.length, 0);

    const action = await createAction(light, { model: 'mock/echo', prompt: 'Echo {{text}}' });
    const started = performance.now();
    const queued = await light.post(`/v1/actions/${action.guid}/prompt`, {
      input: { text: 'am I starved?' },
      async_mode: true,
    });
    const resultPath = new URL(queued.body.result_url).pathname;
    const done = await eventually(async () => {
      const poll = await light.get(resultPath);
      return poll.body.status === 'SUCCESS' ? poll.body : undefined;
    }, 30_000);
    const elapsedMs = performance.now() - started;
    expect(done.msg).toBe('Echo am I starved?');

    // A's load was still being embedded when B's run finished: the run did not wait for it.
    const newest = await heavy.get(`/v1/contexts/${library.body.guid}/documents?limit=1`);
    expect(newest.body.data[0].embedding_status).toBe('pending');
    console.info(`  B's async run behind ${chunks} chunks of A's: SUCCESS in ${elapsedMs.toFixed(0)} ms`);
    expect(elapsedMs).toBeLessThan(2_000);
  }, 180_000);
});
