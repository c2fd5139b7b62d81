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

/** Every job kind the features define (a feature exports its definition from its index.ts). */
const jobDefinitions = [
  asyncRunJob,
  workflowBlockJob,
  embedDocumentsJob,
  processContextSourceJob,
  evaluationItemJob,
  monitorSweepJob,
  webhookDeliveryJob,
] as const;

type Definition = (typeof jobDefinitions)[number];
export type JobName = Definition['name'];
type PayloadOf<Name extends JobName> =
  Extract<Definition, { name: Name }> extends JobDefinition<infer Payload, Name> ? Payload : never;

/**
 * The handler of every job kind, keyed by its name: a definition without a handler, or a handler of
 * another payload, does not compile. test/services.test.ts checks that every job a feature exports
 * is in `jobDefinitions` (docs/architecture.md#jobs); any worker node runs this catalogue.
 */
const jobHandlers: { [Name in JobName]: (services: Services) => JobHandler<PayloadOf<Name>> } = {
  'run-action': (services) => services.runs.asyncRunHandler,
  'run-workflow-block': (services) => services.workflowRunner.blockHandler,
  'embed-documents': (services) => services.documents.embeddingHandler,
  'process-context-source': (services) => services.contextSources.processingHandler,
  'evaluate-item': (services) => services.evaluationItems,
  'monitor-sweep': (services) => services.monitorSweeps,
  'webhook-delivery': (services) => services.webhookDrains.handler,
};

function registration<Name extends JobName>(
  definition: JobDefinition<PayloadOf<Name>, Name>,
  services: Services,
): JobRegistration {
  const handler = jobHandlers[definition.name](services);
  return toRegistration(definition, handler.process, handler.onFinalFailure);
}

/** The catalogue's job kinds, each with its handler from these services. */
export function jobRegistrations(services: Services): JobRegistration[] {
  return jobDefinitions.map((definition) =>
    registration(definition as JobDefinition<PayloadOf<JobName>, JobName>, services),
  );
}

export function registerJobs(jobs: JobQueue, registrations: JobRegistration[]): void {
  for (const { definition, processor, onFinalFailure } of registrations) {
    jobs.register(definition, processor, onFinalFailure);
  }
}
