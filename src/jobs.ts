import { webhookDeliveryJob } from './features/edges/webhooks/index.js';
import { processContextSourceJob } from './features/knowledge/context-sources/index.js';
import { embedDocumentsJob } from './features/knowledge/documents/index.js';
import { evaluationItemJob } from './features/quality/evaluations/index.js';
import { monitorSweepJob } from './features/quality/monitors/index.js';
import { asyncRunJob } from './features/runtime/runs/index.js';
import { workflowBlockJob } from './features/runtime/workflows/index.js';
import {
  type JobDefinition,
  type JobHandler,
  type JobQueue,
  type JobRegistration,
  toRegistration,
} from './platform/jobs/job-queue.js';
import type { Services } from './services.js';

/** One job kind: its definition and the service's handler that runs it (their payloads must agree). */
type CatalogueEntry = (services: Services) => JobRegistration;

function entry<Payload>(
  definition: JobDefinition<Payload>,
  handlerOf: (services: Services) => JobHandler<Payload>,
): CatalogueEntry {
  return (services) => {
    const handler = handlerOf(services);
    return toRegistration(definition, handler.process, handler.onFinalFailure);
  };
}

/**
 * Every job kind, one entry each: a feature defines its job (name, lane, payload, attempts) and
 * offers the handler; this catalogue is what any worker node runs. `tsc` checks that an entry's
 * handler takes its job's payload, and test/services.test.ts that every job a feature exports has
 * its entry (docs/architecture.md#jobs).
 */
export const jobCatalogue: CatalogueEntry[] = [
  entry(asyncRunJob, (services) => services.runs.asyncRunHandler),
  entry(workflowBlockJob, (services) => services.workflowRunner.blockHandler),
  entry(embedDocumentsJob, (services) => services.documents.embeddingHandler),
  entry(processContextSourceJob, (services) => services.contextSources.processingHandler),
  entry(evaluationItemJob, (services) => services.evaluationItems),
  entry(monitorSweepJob, (services) => services.monitorSweeps),
  entry(webhookDeliveryJob, (services) => services.webhookDrains.handler),
];

/** The catalogue's job kinds, each with its handler from these services. */
export function jobRegistrations(services: Services): JobRegistration[] {
  return jobCatalogue.map((wire) => wire(services));
}

export function registerJobs(jobs: JobQueue, registrations: JobRegistration[]): void {
  for (const { definition, processor, onFinalFailure } of registrations) {
    jobs.register(definition, processor, onFinalFailure);
  }
}
