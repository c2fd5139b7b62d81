import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job-queue.js';

/** Documents per embedder call and per UPDATE. */
export const embeddingBatchSize = 32;

/**
 * Embeds the pending Documents among `documentIds` (at most one batch) with their Context's embedder.
 * One batch a job keeps each job short (seconds, even on the offline encoder), so a bulk slot frees
 * often and another workspace's Documents get their turn between two batches of a large load.
 */
export const embedDocumentsJob = defineJob({
  name: 'embed-documents',
  lane: 'bulk',
  payload: z.object({
    workspaceId: z.uuid(),
    contextId: z.uuid(),
    // Jobs queued by an older release may hold up to 1,000 ids; they are embedded a batch at a time.
    documentIds: z.array(z.uuid()),
  }),
  attempts: 4,
  backoffMs: 2_000,
  timeoutMs: 3 * 60_000,
});

export type EmbedDocumentsPayload = z.infer<typeof embedDocumentsJob.payload>;
