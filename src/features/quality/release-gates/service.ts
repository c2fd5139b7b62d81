import type { Principal } from '../../../core/roles.js';
import { ForbiddenError, NotFoundError } from '../../../errors.js';
import type { ActionService, DeployGuard } from '../../authoring/actions/index.js';
import type { PinnedEvaluator } from '../evaluations/tables.js';
import type { GateReader } from './deploy-guard.js';
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
  /** What a deploy reads (src/features/authoring/actions): every condition of the gate, or none without one. */
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
  /** The read side (deploy-guard.ts), which the Actions were given before this was made. */
  gates: GateReader;
}): ReleaseGateService {
  const { repository, actions, datasetVersion, requireEvaluator, gates } = dependencies;

  async function require(workspaceId: string, actionId: string, environment: string): Promise<GateRow> {
    await actions.require(workspaceId, actionId);
    const gate = await repository.find(actionId, environment);
    if (!gate) throw new NotFoundError(`The Action has no release gate on "${environment}"`);
    return gate;
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

    guard: gates.guard,
    gatedEnvironments: gates.gatedEnvironments,

    async remove(workspaceId, actionId, environment) {
      await actions.require(workspaceId, actionId);
      if (!(await repository.remove(actionId, environment)))
        throw new NotFoundError(`The Action has no release gate on "${environment}"`);
    },

    async approve(workspaceId, actionId, version, principal) {
      const author = await actions.savedBy(workspaceId, actionId, version);
      if (principal.type !== 'person' || !principal.person)
        throw new ForbiddenError('An approval is a person’s: sign in as an admin or an owner to approve');
      if (author === principal.person.id)
        throw new ForbiddenError(`You saved version ${version}: another admin or owner approves it`);
      await repository.approve(actionId, version, principal.person.id);
      return repository.approvals(actionId, version);
    },

    async withdraw(workspaceId, actionId, version, principal) {
      await actions.savedBy(workspaceId, actionId, version);
      if (!principal.person || !(await repository.withdraw(actionId, version, principal.person.id)))
        throw new NotFoundError('You have not approved this version');
      return repository.approvals(actionId, version);
    },

    async approvals(workspaceId, actionId, version) {
      await actions.savedBy(workspaceId, actionId, version);
      return repository.approvals(actionId, version);
    },
  };
}
