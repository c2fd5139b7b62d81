import { processContextSourceJob } from './features/context-sources/index.js';
import { embedDocumentsJob } from './features/documents/index.js';
import { evaluationItemJob } from './features/evaluations/index.js';
import { monitorSweepJob } from './features/monitors/index.js';
import { asyncRunJob } from './features/runs/index.js';
import { workflowBlockJob } from './features/workflows/index.js';
import {
  type JobDefinition,
  type JobHandler,
  type JobQueue,
  type JobRegistration,
  toRegistration,
} from './platform/jobs/job-queue.js';
import type { Services } from './services.js';

function wire<Payload>(definition: JobDefinition<Payload>, handler: JobHandler<Payload>): JobRegistration {
  return toRegistration(definition, handler.process, handler.onFinalFailure);
}

/**
 * Every job kind and what runs it, in one place: a feature defines its job (name, lane, payload,
 * attempts) and offers the handler; this list is what any worker node runs. A job kind missing here
 * is never run, so adding one means adding its line (docs/architecture.md#jobs).
 */
export function jobRegistrations(
  services: Pick<
    Services,
    'runs' | 'workflowRunner' | 'documents' | 'contextSources' | 'evaluationItems' | 'monitorSweeps'
  >,
): JobRegistration[] {
  return [
    wire(asyncRunJob, services.runs.asyncRunHandler),
    wire(workflowBlockJob, services.workflowRunner.blockHandler),
    wire(embedDocumentsJob, services.documents.embeddingHandler),
    wire(processContextSourceJob, services.contextSources.processingHandler),
    wire(evaluationItemJob, services.evaluationItems),
    wire(monitorSweepJob, services.monitorSweeps),
  ];
}

export function registerJobs(jobs: JobQueue, registrations: JobRegistration[]): void {
  for (const { definition, processor, onFinalFailure } of registrations) {
    jobs.register(definition, processor, onFinalFailure);
  }
}
