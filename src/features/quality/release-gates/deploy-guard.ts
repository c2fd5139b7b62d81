import { NotFoundError } from '../../../errors.js';
import type { DeployGuard, GateCondition } from '../../authoring/actions/index.js';
import { type ComparisonRepository, compare, type EvaluationRow } from '../evaluations/index.js';
import type { GateRow, ReleaseGateRepository } from './repository.js';

/** The evaluations a gate reads as evidence. */
export type GateEvidence = Pick<ComparisonRepository, 'latestSuccess' | 'paired'>;

/** What a deploy asks of the gates (src/features/authoring/actions): a gate's conditions, and which environments have one. */
export type GateReader = {
  /** Every condition of the gate on the deploy's environment, or none without one. */
  guard: DeployGuard;
  /** The environments of an Action that have a gate. */
  gatedEnvironments(actionId: string): Promise<string[]>;
};

/**
 * The read side of the release gates, which the Actions feature calls inside a deploy. It needs only
 * the gates, the datasets' versions and the evaluations' evidence, so it is made before the Actions;
 * setting gates and approving versions (service.ts) needs the Actions and is made after them.
 */
export function createGateReader(dependencies: {
  repository: ReleaseGateRepository;
  /** The dataset's newest version (a 404 for a missing one). */
  datasetVersion: (workspaceId: string, id: string) => Promise<number>;
  evidence: GateEvidence;
}): GateReader {
  const { repository, datasetVersion, evidence } = dependencies;

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
    gatedEnvironments: (actionId) => repository.environmentsOf(actionId),

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
  };
}
