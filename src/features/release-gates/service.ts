import type { Principal } from '../../core/roles.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import type { PinnedEvaluator } from '../../platform/database/schema.js';
import type { ActionService, DeployGuard, GateCondition } from '../actions/index.js';
import { type ComparisonRepository, compare, type EvaluationRow } from '../evaluations/index.js';
import type { ApprovalRow, GateRow, ReleaseGateRepository } from './repository.js';
import type { GateSettings } from './schemas.js';

export interface ReleaseGateService {
  set(
    workspaceId: string,
    actionId: string,
    environment: string,
    settings: GateSettings,
    by: string,
  ): Promise<GateRow>;
  get(workspaceId: string, actionId: string, environment: string): Promise<GateRow>;
  remove(workspaceId: string, actionId: string, environment: string): Promise<void>;
  /** What a deploy reads (src/features/actions): every condition of the gate, or none without one. */
  guard: DeployGuard;
  /** The environments of an Action that have a gate. */
  gatedEnvironments(actionId: string): Promise<string[]>;
  approve(
    workspaceId: string,
    actionId: string,
    version: number,
    principal: Principal,
  ): Promise<ApprovalRow[]>;
  withdraw(
    workspaceId: string,
    actionId: string,
    version: number,
    principal: Principal,
  ): Promise<ApprovalRow[]>;
  approvals(workspaceId: string, actionId: string, version: number): Promise<ApprovalRow[]>;
}

/** The evaluations a gate reads as evidence. */
export type GateEvidence = Pick<ComparisonRepository, 'latestSuccess' | 'paired'>;

export function createReleaseGateService(dependencies: {
  repository: ReleaseGateRepository;
  actions: Pick<ActionService, 'require' | 'savedBy'>;
  /** The dataset's newest version (a 404 for a missing one). */
  datasetVersion: (workspaceId: string, id: string) => Promise<number>;
  /** The workspace's evaluator as it is now (a 404 for a missing one): the gate pins it. */
  requireEvaluator: (
    workspaceId: string,
    id: string,
  ) => Promise<{ name: string; type: string; config: Record<string, unknown> }>;
  evidence: GateEvidence;
}): ReleaseGateService {
  const { repository, actions, datasetVersion, requireEvaluator, evidence } = dependencies;

  async function require(workspaceId: string, actionId: string, environment: string): Promise<GateRow> {
    await actions.require(workspaceId, actionId);
    const gate = await repository.find(actionId, environment);
    if (!gate) throw new NotFoundError(`The Action has no release gate on "${environment}"`);
    return gate;
  }

  /** Only the gate's evaluators count: a comparison of two evaluations restricted to them. */
  const onGateEvaluators = (evaluation: EvaluationRow, gate: GateRow): EvaluationRow => ({
    ...evaluation,
    evaluators: evaluation.evaluators.filter((evaluator) => gate.evaluatorIds.includes(evaluator.id)),
  });

  /** The regressions condition: items worse than the deployed version's evaluation on the same items. */
  async function regressions(
    gate: GateRow,
    candidate: EvaluationRow,
    deployedVersion: number | undefined,
  ): Promise<GateCondition> {
    const required = gate.maxRegressions!;
    const unmet = { condition: 'max_regressions' as const, met: false, required, actual: null };
    if (deployedVersion === undefined) return unmet;
    if (deployedVersion === candidate.version) return { ...unmet, met: true, actual: 0 };
    const baseline = await evidence.latestSuccess(
      gate.actionId,
      deployedVersion,
      gate.datasetId,
      candidate.datasetVersion,
      gate.evaluatorPins,
    );
    if (!baseline) return unmet;
    const pairs = await evidence.paired(baseline.id, candidate.id);
    const { regressedItems } = compare(
      onGateEvaluators(baseline, gate),
      onGateEvaluators(candidate, gate),
      pairs,
      {
        limit: 0,
        intervals: false,
      },
    );
    return { ...unmet, met: regressedItems <= required, actual: regressedItems, evaluation: baseline.id };
  }

  return {
    async set(workspaceId, actionId, environment, settings, by) {
      await actions.require(workspaceId, actionId);
      // The gate pins the dataset's version and each evaluator as they are now: a developer who
      // changes items or an evaluator's config makes evidence this gate does not read, until an
      // admin sets the gate again.
      const pinnedDatasetVersion = await datasetVersion(workspaceId, settings.dataset);
      const evaluatorPins: PinnedEvaluator[] = [];
      for (const id of settings.evaluators) {
        const { name, type, config } = await requireEvaluator(workspaceId, id);
        evaluatorPins.push({ id, name, type, config });
      }
      return repository.save({
        actionId,
        environment,
        datasetId: settings.dataset,
        datasetVersion: pinnedDatasetVersion,
        evaluatorIds: settings.evaluators,
        evaluatorPins,
        minMean: settings.min_mean,
        maxRegressions: settings.max_regressions ?? null,
        approvals: settings.approvals ?? null,
        updatedById: by,
      });
    },

    get: require,

    gatedEnvironments: (actionId) => repository.environmentsOf(actionId),

    async remove(workspaceId, actionId, environment) {
      await actions.require(workspaceId, actionId);
      if (!(await repository.remove(actionId, environment)))
        throw new NotFoundError(`The Action has no release gate on "${environment}"`);
    },

    async guard({ workspaceId, actionId, environment, version, authorId, deployedVersion }) {
      const gate = await repository.find(actionId, environment, true);
      if (!gate) return undefined;
      const conditions: GateCondition[] = [];
      // A deleted dataset leaves no evidence a deploy could meet: only force deploys then.
      const datasetExists = await datasetVersion(workspaceId, gate.datasetId).then(
        () => true,
        (error: unknown) => {
          if (error instanceof NotFoundError) return false;
          throw error;
        },
      );
      const evaluation = datasetExists
        ? await evidence.latestSuccess(
            actionId,
            version,
            gate.datasetId,
            gate.datasetVersion,
            gate.evaluatorPins,
          )
        : undefined;
      if (!evaluation) {
        conditions.push({
          condition: 'evaluation_missing',
          met: false,
          required: {
            dataset: gate.datasetId,
            dataset_version: datasetExists ? gate.datasetVersion : null,
            evaluators: gate.evaluatorIds,
          },
        });
      } else {
        conditions.push({ condition: 'evaluation_missing', met: true, evaluation: evaluation.id });
        const summary = (evaluation.report?.summary ?? {}) as Record<string, { mean: number | null }>;
        for (const [evaluator, required] of Object.entries(gate.minMean)) {
          const actual = summary[evaluator]?.mean ?? null;
          conditions.push({
            condition: 'min_mean',
            met: actual !== null && actual >= required,
            evaluator,
            required,
            actual,
            evaluation: evaluation.id,
          });
        }
        if (gate.maxRegressions !== null)
          conditions.push(await regressions(gate, evaluation, deployedVersion));
      }
      if (gate.approvals !== null) {
        const actual = await repository.countingApprovals(workspaceId, actionId, version, authorId);
        conditions.push({
          condition: 'approvals',
          met: actual >= gate.approvals,
          required: gate.approvals,
          actual,
        });
      }
      return conditions;
    },

    async approve(workspaceId, actionId, version, principal) {
      const author = await actions.savedBy(workspaceId, actionId, version);
      if (principal.type !== 'user' || !principal.user)
        throw new ForbiddenError('An approval is a person’s: sign in as an admin or an owner to approve');
      if (author === principal.user.id)
        throw new ForbiddenError(`You saved version ${version}: another admin or owner approves it`);
      await repository.approve(actionId, version, principal.user.id);
      return repository.approvals(actionId, version);
    },

    async withdraw(workspaceId, actionId, version, principal) {
      await actions.savedBy(workspaceId, actionId, version);
      if (!principal.user || !(await repository.withdraw(actionId, version, principal.user.id)))
        throw new NotFoundError('You have not approved this version');
      return repository.approvals(actionId, version);
    },

    async approvals(workspaceId, actionId, version) {
      await actions.savedBy(workspaceId, actionId, version);
      return repository.approvals(actionId, version);
    },
  };
}
