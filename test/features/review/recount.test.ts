import { describe, expect, it } from 'vitest';
import type { AnswerCountRepository } from '../../../src/features/quality/review-queues/answer-counts.js';
import {
  createAnswerRecounter,
  reviewAnswerRecountJob,
} from '../../../src/features/quality/review-queues/recount.js';

// The recount of a queue's answers is a chain of jobs, each counting a few chunks of items and
// queueing the next from where it stopped; the last one, finding no item left, queues nothing.
describe('the recount chain', () => {
  it('counts a few chunks per job and goes on from the last item it counted', async () => {
    const positions = [3, 7, 9, 12, 15];
    const asked: number[] = [];
    const answerCounts = {
      async recountItems(_queueId: string, after: number, limit: number) {
        expect(limit).toBe(2);
        asked.push(after);
        return positions.find((position) => position > after);
      },
    } as unknown as AnswerCountRepository;
    const queued: unknown[] = [];
    const recounter = createAnswerRecounter({
      answerCounts,
      jobs: {
        async enqueue(definition, payload) {
          expect(definition).toBe(reviewAnswerRecountJob);
          queued.push(payload);
          return 'job';
        },
      },
      inTransaction: (work) => work(),
      afterCommit: async (work) => void (await work()),
      pace: { itemsPerChunk: 2, chunksPerJob: 2 },
    });
    const workspaceId = '00000000-0000-4000-8000-000000000001';
    const queueId = '00000000-0000-4000-8000-000000000002';
    await recounter.schedule(workspaceId, queueId);
    const context = { jobId: 'job', attempt: 1, signal: new AbortController().signal };
    for (let run = 0; run < queued.length; run += 1) await recounter.process(queued[run] as never, context);
    expect(queued.map((payload) => (payload as { after: number }).after)).toEqual([0, 7, 12]);
    // The third job counts the last item and finds nothing after it: the chain ends.
    expect(asked).toEqual([0, 3, 7, 9, 12, 15]);
  });
});
