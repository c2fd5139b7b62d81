import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job-queue.js';

/** Fetch → detect type → extract text → split → store Documents (embedded by their own job). */
export const processContextSourceJob = defineJob({
  name: 'process-context-source',
  lane: 'bulk',
  payload: z.object({ workspaceId: z.uuid(), sourceId: z.uuid() }),
  attempts: 3,
  backoffMs: 5_000,
  timeoutMs: 10 * 60_000,
});

export type ProcessContextSourcePayload = z.infer<typeof processContextSourceJob.payload>;
