import type { FeatureModule } from './features/feature-module.js';
import type { JobQueue } from './platform/jobs/job-queue.js';

/**
 * Every job kind of the modules, each with the handler its module paired it with
 * (`handles(definition, handler)`); any worker node runs them all. test/services.test.ts checks
 * that every job a feature exports is registered (docs/architecture.md#jobs).
 */
export function registerJobs(jobs: JobQueue, modules: Record<string, FeatureModule>): void {
  for (const module of Object.values(modules)) {
    for (const { definition, processor, onFinalFailure } of module.jobs ?? []) {
      jobs.register(definition, processor, onFinalFailure);
    }
  }
}
