import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError } from '../../../errors.js';
import type { JobQueue } from '../../../platform/jobs/job-queue.js';
import type { MonitorRepository, MonitorRow } from './repository.js';
import type { MonitorChange, NewMonitor } from './schemas.js';
import { monitorSweepJob, sweepJobKey } from './sweep-job.js';

export interface MonitorService {
  create(workspaceId: string, creatorId: string, fields: NewMonitor): Promise<MonitorRow>;
  list(workspaceId: string, pagination: Pagination, actionId?: string): Promise<Page<MonitorRow>>;
  require(workspaceId: string, id: string): Promise<MonitorRow>;
  change(workspaceId: string, id: string, fields: MonitorChange): Promise<MonitorRow>;
  remove(workspaceId: string, id: string): Promise<void>;
}

export function createMonitorService(dependencies: {
  repository: MonitorRepository;
  jobs: Pick<JobQueue, 'enqueue'>;
  /** A 404 unless the workspace has the Action. */
  requireAction: (workspaceId: string, id: string) => Promise<void>;
  /** A 404 unless the workspace has the evaluator. */
  requireEvaluator: (workspaceId: string, id: string) => Promise<unknown>;
  /** Runs work once the current transaction has committed: a worker must find the monitor its job names. */
  afterCommit: (work: () => Promise<unknown>) => Promise<void>;
}): MonitorService {
  const { repository, jobs, requireAction, requireEvaluator, afterCommit } = dependencies;

  async function require(workspaceId: string, id: string): Promise<MonitorRow> {
    const monitor = await repository.find(workspaceId, id);
    if (!monitor) throw new NotFoundError('Monitor not found');
    return monitor;
  }

  async function requireEvaluators(workspaceId: string, ids: string[]): Promise<void> {
    for (const id of ids) await requireEvaluator(workspaceId, id);
  }

  return {
    async create(workspaceId, creatorId, fields) {
      await requireAction(workspaceId, fields.action);
      await requireEvaluators(workspaceId, fields.evaluators);
      const monitor = await repository.insert({
        id: randomUUID(),
        workspaceId,
        actionId: fields.action,
        evaluatorIds: fields.evaluators,
        sampleRate: fields.sample_rate,
        environment: fields.environment ?? null,
        // Generations from now on: a monitor watches live traffic, it does not score the past.
        scannedUntil: new Date(),
        createdById: creatorId,
      });
      await afterCommit(() =>
        jobs.enqueue(
          monitorSweepJob,
          { workspaceId, monitorId: monitor.id, sweep: 0 },
          { key: sweepJobKey(monitor.id, 0) },
        ),
      );
      return monitor;
    },

    async list(workspaceId, { skip, limit }, actionId) {
      return repository.list(workspaceId, skip, limit, actionId);
    },

    require,

    async change(workspaceId, id, fields) {
      await require(workspaceId, id);
      if (fields.evaluators) await requireEvaluators(workspaceId, fields.evaluators);
      const monitor = await repository.update(workspaceId, id, {
        ...(fields.evaluators && { evaluatorIds: fields.evaluators }),
        ...(fields.sample_rate !== undefined && { sampleRate: fields.sample_rate }),
        ...(fields.environment !== undefined && { environment: fields.environment }),
      });
      if (!monitor) throw new NotFoundError('Monitor not found');
      return monitor;
    },

    async remove(workspaceId, id) {
      if (!(await repository.update(workspaceId, id, { deletedAt: new Date() })))
        throw new NotFoundError('Monitor not found');
    },
  };
}
