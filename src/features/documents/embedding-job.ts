import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-queue.js';

/** Embeds the pending Documents among `documentIds` with their Context's embedder. */
export const embedDocumentsJob = defineJob({
  name: 'embed-documents',
  payload: z.object({
    workspaceId: z.uuid(),
    contextId: z.uuid(),
    documentIds: z.array(z.uuid()),
  }),
  attempts: 4,
  backoffMs: 2_000,
  timeoutMs: 15 * 60_000,
});

export type EmbedDocumentsPayload = z.infer<typeof embedDocumentsJob.payload>;

/** Documents per embedder call and per UPDATE. */
export const embeddingBatchSize = 32;
