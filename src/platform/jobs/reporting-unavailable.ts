import { ZodError } from 'zod';
import { ServiceUnavailableError } from '../../errors.js';
import type { JobQueue } from './job-queue.js';

/**
 * The job queue as features use it: a queue that cannot take a job (Redis or the database away) is a
 * 503 the client may retry, not a 500. A payload the definition refuses stays a programming error.
 */
export function reportingUnavailable(jobs: JobQueue): JobQueue {
  return {
    ...jobs,
    async enqueue(definition, payload, options) {
      try {
        return await jobs.enqueue(definition, payload, options);
      } catch (error) {
        if (error instanceof ZodError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new ServiceUnavailableError('queue_unavailable', `The job queue is unavailable: ${message}`);
      }
    },
  };
}
