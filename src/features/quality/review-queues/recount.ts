import { z } from 'zod';
import { defineJob, type JobHandler, type JobQueue } from '../../../platform/jobs/job-queue.js';
import type { AnswerCountRepository } from './answer-counts.js';

/**
 * Counts a queue's reviews again for agreement after its questions changed (a type, a question added
 * or removed). Bulk jobs in a chain, each counting a few chunks of items and queueing the next from
 * where it stopped, so a bulk slot frees every few seconds; each chunk is its own short transaction:
 * in one statement, 30,000 reviews held the embedded database for 3 s, every other workspace's
 * requests waiting. Safe to run again (a retry, or two changes in a row): each chunk makes its items'
 * counts afresh from the questions the queue has then.
 */
export const reviewAnswerRecountJob = defineJob({
  name: 'review-answer-recount',
  lane: 'bulk',
  payload: z.object({
    workspaceId: z.uuid(),
    queueId: z.uuid(),
    /** The position of the last item counted before this job. */
    after: z.number().int().min(0),
  }),
  attempts: 3,
  backoffMs: 2_000,
  timeoutMs: 10 * 60 * 1000,
});

type RecountPayload = z.infer<typeof reviewAnswerRecountJob.payload>;

/** How the chain paces itself: items a chunk counts again, chunks one job of the chain counts. */
export type RecountPace = { itemsPerChunk: number; chunksPerJob: number };

/**
 * 200 items (600 reviews) a chunk took a median 35, at worst 53 ms a statement on the embedded
 * database (its baseline compiler, this machine): half that holds it half as long. Twenty chunks
 * are a couple of seconds of a bulk slot.
 */
export const defaultRecountPace: RecountPace = { itemsPerChunk: 100, chunksPerJob: 20 };

export type AnswerRecounter = JobHandler<RecountPayload> & {
  /** Queues the queue's recount, once the change that asks for it has committed. */
  schedule(workspaceId: string, queueId: string): Promise<void>;
};

export function createAnswerRecounter(dependencies: {
  answerCounts: AnswerCountRepository;
  jobs: Pick<JobQueue, 'enqueue'>;
  /** Runs work in one transaction (joining the request's, when it has one). */
  inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
  /** Runs work once the current transaction has committed: the job must read the new questions. */
  afterCommit: (work: () => Promise<unknown>) => Promise<void>;
  pace?: RecountPace;
}): AnswerRecounter {
  const { answerCounts, jobs, inTransaction, afterCommit, pace = defaultRecountPace } = dependencies;
  return {
    schedule(workspaceId, queueId) {
      return afterCommit(() => jobs.enqueue(reviewAnswerRecountJob, { workspaceId, queueId, after: 0 }));
    },

    async process(payload, { signal }) {
      let after = payload.after;
      for (let chunk = 0; chunk < pace.chunksPerJob; chunk += 1) {
        signal.throwIfAborted();
        const last = await inTransaction(() =>
          answerCounts.recountItems(payload.queueId, after, pace.itemsPerChunk),
        );
        if (last === undefined) return;
        after = last;
      }
      await jobs.enqueue(reviewAnswerRecountJob, { ...payload, after });
    },
  };
}
