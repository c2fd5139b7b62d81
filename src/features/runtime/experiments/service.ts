import { createHash, randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError, ValidationError } from '../../../errors.js';
import type { AppService } from '../../authoring/apps/index.js';
import type { RunCaller, RunInput, RunMode, RunService } from '../runs/index.js';
import type { SessionService } from '../sessions/index.js';
import { positiveValueOf, proportionWithInterval } from './proportions.js';
import type { ExperimentRepository, ExperimentRow } from './repository.js';
import type { ExperimentRunResponse } from './responses.js';

/** An A/B test between two Actions of an App: `split` of the traffic goes to the secondary one. */
export type Experiment = ExperimentRow;

/** A new experiment: its App, its two arms and the share of runs the secondary gets (default 0.5). */
export type NewExperiment = Pick<
  ExperimentRow,
  'appId' | 'name' | 'primaryActionId' | 'secondaryActionId'
> & {
  split?: number;
};

/** What an update may change: a field left out keeps its value. */
export type ExperimentChanges = Partial<
  Pick<ExperimentRow, 'name' | 'primaryActionId' | 'secondaryActionId' | 'split' | 'status'>
>;

/** One arm's figures: runs, feedback counts per type and value, and the positive rating's rate. */
export type ExperimentArm = {
  variant: 'primary' | 'secondary';
  actionId: string;
  runs: number;
  feedback: Record<string, Record<string, number>>;
  /** For a two-valued rating: which value is positive, and its rate with a 95% interval. */
  positiveRating?: { value: string; proportion: ReturnType<typeof proportionWithInterval> };
};

export type ExperimentResults = { experiment: Experiment; arms: [ExperimentArm, ExperimentArm] };

export type { ExperimentRunResponse };

/** A run of an experiment: the run, how it answers, and the arm it must take (diagnostics), if any. */
export type ExperimentRun = { input: RunInput; mode: RunMode; forceAction?: string };

export interface ExperimentService {
  create(workspaceId: string, input: NewExperiment): Promise<Experiment>;
  /** The experiment, or 404 — also for one of another workspace. */
  require(workspaceId: string, id: string): Promise<Experiment>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<Experiment>>;
  update(workspaceId: string, id: string, changes: ExperimentChanges): Promise<Experiment>;
  remove(workspaceId: string, id: string): Promise<Experiment>;
  /** Runs the assigned Action (or the forced arm) through the run engine, in any of the three modes. */
  run(caller: RunCaller, id: string, order: ExperimentRun): Promise<ExperimentRunResponse>;
  /** Per-arm run counts and feedback counts; for a two-valued rating, the positive rate with a 95% interval. */
  results(workspaceId: string, id: string): Promise<ExperimentResults>;
}

/** A stable point in [0, 1) for a key, so one user always lands in the same arm. */
function stablePoint(experimentId: string, key: string): number {
  const digest = createHash('sha256').update(`${experimentId}\n${key}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

export function createExperimentService(dependencies: {
  repository: ExperimentRepository;
  apps: AppService;
  requireAction: (workspaceId: string, actionId: string) => Promise<unknown>;
  sessions: Pick<SessionService, 'require'>;
  runs: Pick<RunService, 'run'>;
}): ExperimentService {
  const { repository, apps, requireAction, sessions, runs } = dependencies;

  async function require(workspaceId: string, id: string): Promise<ExperimentRow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Experiment not found');
    return row;
  }

  async function checkArms(workspaceId: string, primary: string, secondary: string): Promise<void> {
    if (primary === secondary) {
      throw new ValidationError('action_secondary_guid', 'must differ from action_primary_guid');
    }
    await requireAction(workspaceId, primary);
    await requireAction(workspaceId, secondary);
  }

  /**
   * Which Action runs: `force_action` when given; the primary while paused; a session's own Action (a session belongs to one
   * Action, so it is sticky by construction); a hash of `extUserId`; otherwise a random draw.
   */
  async function assign(
    workspaceId: string,
    experiment: ExperimentRow,
    { input, forceAction }: ExperimentRun,
  ) {
    const arms = [experiment.primaryActionId, experiment.secondaryActionId];
    if (forceAction) {
      if (!arms.includes(forceAction)) {
        throw new ValidationError('force_action', 'is not an Action of this experiment');
      }
      return forceAction;
    }
    // Paused: every run goes to the primary Action (the control) until the experiment runs again.
    // Completed: the split stays as left, which is how the console declares a winner (0 or 1).
    if (experiment.status === 'paused') return experiment.primaryActionId;
    if (input.sessionId) {
      const session = await sessions.require(workspaceId, input.sessionId);
      if (!arms.includes(session.actionId)) {
        throw new ValidationError('session', 'belongs to an Action outside this experiment');
      }
      return session.actionId;
    }
    const point = input.endUser ? stablePoint(experiment.id, input.endUser) : Math.random();
    return point < experiment.split ? experiment.secondaryActionId : experiment.primaryActionId;
  }

  return {
    require,

    async create(workspaceId, input) {
      await apps.require(workspaceId, input.appId);
      await checkArms(workspaceId, input.primaryActionId, input.secondaryActionId);
      return repository.insert({ id: randomUUID(), workspaceId, ...input, split: input.split ?? 0.5 });
    },

    list(workspaceId, pagination) {
      return repository.list(workspaceId, pagination.skip, pagination.limit);
    },

    async update(workspaceId, id, changes) {
      const current = await require(workspaceId, id);
      const primary = changes.primaryActionId ?? current.primaryActionId;
      const secondary = changes.secondaryActionId ?? current.secondaryActionId;
      if (changes.primaryActionId || changes.secondaryActionId)
        await checkArms(workspaceId, primary, secondary);
      const row = await repository.update(workspaceId, id, {
        ...changes,
        primaryActionId: primary,
        secondaryActionId: secondary,
      });
      if (!row) throw new NotFoundError('Experiment not found');
      return row;
    },

    async remove(workspaceId, id) {
      const row = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!row) throw new NotFoundError('Experiment not found');
      return row;
    },

    async run(caller, id, order) {
      const experiment = await require(caller.workspaceId, id);
      const actionId = await assign(caller.workspaceId, experiment, order);
      const response = await runs.run(caller, actionId, order.input, order.mode, {
        source: 'experiment',
        experimentId: experiment.id,
      });
      return {
        ...response,
        action: actionId,
        variant: actionId === experiment.primaryActionId ? 'primary' : 'secondary',
      };
    },

    async results(workspaceId, id) {
      const experiment = await require(workspaceId, id);
      const runCounts = await repository.runCounts(experiment.id);
      const feedbackCounts = await repository.feedbackCounts(experiment.id);
      const positive = positiveValueOf(
        feedbackCounts.filter((row) => row.type === 'rating').map((row) => row.value),
      );
      const arm = (actionId: string, variant: 'primary' | 'secondary'): ExperimentArm => {
        const feedback: Record<string, Record<string, number>> = {};
        for (const row of feedbackCounts.filter((candidate) => candidate.action_id === actionId)) {
          feedback[row.type] ??= {};
          feedback[row.type]![row.value] = row.count;
        }
        const ratings = feedback.rating ?? {};
        const rated = Object.values(ratings).reduce((sum, value) => sum + value, 0);
        return {
          variant,
          actionId,
          runs: runCounts.find((row) => row.actionId === actionId)?.runs ?? 0,
          feedback,
          ...(positive !== undefined && {
            positiveRating: {
              value: positive,
              proportion: proportionWithInterval(ratings[positive] ?? 0, rated),
            },
          }),
        };
      };
      return {
        experiment,
        arms: [arm(experiment.primaryActionId, 'primary'), arm(experiment.secondaryActionId, 'secondary')],
      };
    },
  };
}
