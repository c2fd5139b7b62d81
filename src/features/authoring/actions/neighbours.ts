import type { Logger } from 'pino';
import { AppError } from '../../../errors.js';

// What the Action feature tells and asks of the features beside it (wired in src/services.ts): the
// release gates it asks before a deploy, and who hears of its saves and deploys.

/** One condition of a release gate, met or not, with the evidence it read (docs/evaluations.md#release-gates). */
export type GateCondition = {
  condition: 'evaluation_missing' | 'min_mean' | 'max_regressions' | 'approvals';
  met: boolean;
  evaluator?: string;
  required?: unknown;
  actual?: unknown;
  /** The evaluation the condition read, when there is one. */
  evaluation?: string;
};

/**
 * What a deploy asks the release gates (a feature of its own, wired in src/services.ts): every
 * condition of the environment's gate for this version, or none when it has no gate. It is read in
 * the transaction that moves the deployment.
 */
export type DeployGuard = (deploy: {
  workspaceId: string;
  actionId: string;
  environment: string;
  version: number;
  /** Who saved the version: their own approval does not count. */
  authorId: string | null;
  /** The version deployed there now, if any: regressions are counted against its evaluation. */
  deployedVersion: number | undefined;
}) => Promise<GateCondition[] | undefined>;

/** A deploy the gate refused: 409 `gate_failed`, one detail per unmet condition. */
export class GateFailedError extends AppError {
  constructor(environment: string, version: number, unmet: GateCondition[]) {
    super(
      409,
      'gate_failed',
      `Version ${version} does not meet the release gate of "${environment}": ${unmet.map((each) => each.condition).join(', ')}`,
      unmet.map(({ met: _met, ...detail }) => detail),
    );
  }
}

/** What the Action feature asks of the release gates (wired in src/services.ts). */
export type ReleaseGateLookup = {
  guard: DeployGuard;
  /** The environments of an Action that have a release gate. */
  gatedEnvironments(actionId: string): Promise<string[]>;
};

/**
 * Told, once the change is committed, that what runs in some environments of an Action changed (a
 * deploy, a new Action, a disabled or deleted one): the prompts feature pushes it to clients.
 */
export type DeploymentsChanged = (change: {
  workspaceId: string;
  actionId: string;
  slug: string;
  environments: string[];
}) => void;

/**
 * What an Action's changes tell the world outside (the webhooks, docs/webhooks.md#events). Saves and
 * deploys are told in the transaction of the change; a refused deploy although its request fails.
 */
export type ActionEvent =
  | {
      type: 'action.version_saved';
      data: {
        action: string;
        slug: string;
        version: number;
        saved_by_id: string | null;
        changed_fields: string[];
      };
    }
  | {
      type: 'action.deployed';
      data: {
        action: string;
        slug: string;
        version: number;
        environment: string;
        deployed_by: string | null;
      };
    }
  | {
      type: 'deployment.refused';
      data: {
        action: string;
        slug: string;
        version: number;
        environment: string;
        refused_for: string | null;
        unmet: GateCondition['condition'][];
      };
    };

export type ActionEvents = (workspaceId: string, event: ActionEvent) => Promise<void>;

/** What the Action feature tells and asks of its neighbours (wired in src/services.ts). */
export type ActionNeighbours = {
  gates?: ReleaseGateLookup;
  deploymentsChanged?: DeploymentsChanged;
  events?: ActionEvents;
  /**
   * Runs work once the current transaction has ended, committed or not: a refused deploy's request
   * fails and its transaction rolls back, and its event is told after that.
   */
  whenEnded?: (work: () => Promise<unknown>) => Promise<void>;
  /** Where a refusal's event that could not be told is logged (the request has failed already). */
  logger?: Pick<Logger, 'error'>;
};
