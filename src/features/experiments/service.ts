import { createHash, randomUUID } from 'node:crypto';
import type { Pagination } from '../../core/pagination.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AppService } from '../apps/index.js';
import type { RunCaller, RunService } from '../runs/index.js';
import type { SessionService } from '../sessions/index.js';
import type { ExperimentRepository, ExperimentRow } from './repository.js';
import type { CreateExperimentInput, ExperimentRunInput, UpdateExperimentInput } from './schemas.js';
import { positiveValueOf, proportionWithInterval } from './statistics.js';

export function presentExperiment(row: ExperimentRow) {
  return {
    guid: row.id,
    name: row.name,
    app_guid: row.appId,
    action_primary_guid: row.primaryActionId,
    action_secondary_guid: row.secondaryActionId,
    split: row.split,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A stable point in [0, 1) for a key, so one user always lands in the same arm. */
function stablePoint(experimentId: string, key: string): number {
  const digest = createHash('sha256').update(`${experimentId}\n${key}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

export function createExperimentService(dependencies: {
  repository: ExperimentRepository;
  apps: AppService;
  requireAction: (workspaceId: string, actionId: string) => Promise<void>;
  sessions: SessionService;
  runs: RunService;
}) {
  const { repository, apps, requireAction, sessions, runs } = dependencies;

  async function require(workspaceId: string, id: string): Promise<ExperimentRow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Experiment not found');
    return row;
  }

  async function checkArms(workspaceId: string, primary: string, secondary: string): Promise<void> {
    if (primary === secondary) {
      throw new ValidationError('must differ from action_primary_guid', 'action_secondary_guid');
    }
    await requireAction(workspaceId, primary);
    await requireAction(workspaceId, secondary);
  }

  /**
   * Which Action runs: `force_action` when given; a session's own Action (a session belongs to one
   * Action, so it is sticky by construction); a hash of `extUserId`; otherwise a random draw.
   */
  async function assign(workspaceId: string, experiment: ExperimentRow, input: ExperimentRunInput) {
    const arms = [experiment.primaryActionId, experiment.secondaryActionId];
    if (input.force_action) {
      if (!arms.includes(input.force_action)) {
        throw new ValidationError('is not an Action of this experiment', 'force_action');
      }
      return input.force_action;
    }
    if (input.session) {
      const session = await sessions.require(workspaceId, input.session);
      if (!arms.includes(session.actionId)) {
        throw new ValidationError('belongs to an Action outside this experiment', 'session');
      }
      return session.actionId;
    }
    const point = input.extUserId ? stablePoint(experiment.id, input.extUserId) : Math.random();
    return point < experiment.split ? experiment.secondaryActionId : experiment.primaryActionId;
  }

  return {
    async create(workspaceId: string, input: CreateExperimentInput) {
      await apps.require(workspaceId, input.app_guid);
      await checkArms(workspaceId, input.action_primary_guid, input.action_secondary_guid);
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        appId: input.app_guid,
        name: input.name,
        primaryActionId: input.action_primary_guid,
        secondaryActionId: input.action_secondary_guid,
        split: input.split ?? 0.5,
      });
      return presentExperiment(row);
    },

    async get(workspaceId: string, id: string) {
      return presentExperiment(await require(workspaceId, id));
    },

    async list(workspaceId: string, pagination: Pagination) {
      const { rows, total } = await repository.list(workspaceId, pagination.skip, pagination.limit);
      return { rows: rows.map(presentExperiment), total };
    },

    async update(workspaceId: string, id: string, input: UpdateExperimentInput) {
      const current = await require(workspaceId, id);
      const primary = input.action_primary_guid ?? current.primaryActionId;
      const secondary = input.action_secondary_guid ?? current.secondaryActionId;
      if (input.action_primary_guid || input.action_secondary_guid)
        await checkArms(workspaceId, primary, secondary);
      const row = await repository.update(workspaceId, id, {
        name: input.name,
        primaryActionId: primary,
        secondaryActionId: secondary,
        split: input.split,
        status: input.status,
      });
      if (!row) throw new NotFoundError('Experiment not found');
      return presentExperiment(row);
    },

    async remove(workspaceId: string, id: string) {
      const row = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!row) throw new NotFoundError('Experiment not found');
      return { ...presentExperiment(row), deleted: true };
    },

    /** Runs the assigned Action through the run engine, in any of the three modes. */
    async run(caller: RunCaller, id: string, input: ExperimentRunInput) {
      const experiment = await require(caller.workspaceId, id);
      const actionId = await assign(caller.workspaceId, experiment, input);
      const { force_action: _forced, ...request } = input;
      const response = await runs.run(caller, actionId, request, {
        source: 'experiment',
        experimentId: experiment.id,
      });
      return {
        ...response,
        action: actionId,
        variant: actionId === experiment.primaryActionId ? 'primary' : 'secondary',
      };
    },

    /** Per-arm run counts and feedback counts; for a two-valued rating, the positive rate with a 95% interval. */
    async results(workspaceId: string, id: string) {
      const experiment = await require(workspaceId, id);
      const runCounts = await repository.runCounts(experiment.id);
      const feedbackCounts = await repository.feedbackCounts(experiment.id);
      const positive = positiveValueOf(
        feedbackCounts.filter((row) => row.type === 'rating').map((row) => row.value),
      );
      const arm = (actionId: string, variant: 'primary' | 'secondary') => {
        const feedback: Record<string, Record<string, number>> = {};
        for (const row of feedbackCounts.filter((candidate) => candidate.action_id === actionId)) {
          feedback[row.type] ??= {};
          feedback[row.type]![row.value] = row.count;
        }
        const ratings = feedback.rating ?? {};
        const rated = Object.values(ratings).reduce((sum, value) => sum + value, 0);
        return {
          variant,
          action: actionId,
          runs: runCounts.find((row) => row.actionId === actionId)?.runs ?? 0,
          feedback,
          ...(positive !== undefined && {
            positive_rating: { value: positive, ...proportionWithInterval(ratings[positive] ?? 0, rated) },
          }),
        };
      };
      return {
        experiment: presentExperiment(experiment),
        arms: [arm(experiment.primaryActionId, 'primary'), arm(experiment.secondaryActionId, 'secondary')],
      };
    },
  };
}

export type ExperimentService = ReturnType<typeof createExperimentService>;
