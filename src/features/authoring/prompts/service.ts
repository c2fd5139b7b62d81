import type { Logger } from 'pino';
import { isGuid } from '../../../core/guid.js';
import { NotFoundError } from '../../../errors.js';
import type { Broadcast } from '../../../platform/broadcast/broadcast.js';
import type { DeployedVersion, DeployedVersionRepository } from '../actions/index.js';

/** What a node tells a workspace's connected clients. */
export type DeploymentEvent =
  | { type: 'deployment'; deployed: DeployedVersion }
  | { type: 'removed'; action: string; slug: string; environment: string };

export type DeploymentListener = (events: DeploymentEvent[]) => void;

/** A change to where an Action's versions run, announced by the Actions feature after its commit. */
export type DeploymentChange = {
  workspaceId: string;
  actionId: string;
  slug: string;
  environments: string[];
};

export interface PromptService {
  /** The version deployed to `environment` (default: the Action's default environment); 404 when none. */
  get(workspaceId: string, guidOrSlug: string, environment?: string): Promise<DeployedVersion>;
  /** Every running Action's version deployed to `environment` (or each one's default environment). */
  list(workspaceId: string, environment?: string): Promise<DeployedVersion[]>;
  /** Tells every node, and so every connected client, that the deployments changed. */
  announce(change: DeploymentChange): Promise<void>;
  /** How many listeners the workspace has on this node (its open event streams). */
  listeners(workspaceId: string): number;
  /** Calls `listener` with each change of the workspace's deployments until the returned function is called. */
  listen(workspaceId: string, listener: DeploymentListener): () => void;
}

const topic = 'deployments';

export function createPromptService(dependencies: {
  deployed: DeployedVersionRepository;
  broadcast: Broadcast;
  logger: Pick<Logger, 'warn'>;
}): PromptService {
  const { deployed, broadcast, logger } = dependencies;
  const listeners = new Map<string, Set<DeploymentListener>>();
  // One subscription per node, for as long as it runs (it ends with the platform's broadcast).
  let subscribed = false;

  /** One read per change and node, however many clients of the workspace listen here. */
  async function onChange(message: string) {
    const change = JSON.parse(message) as DeploymentChange;
    const here = listeners.get(change.workspaceId);
    if (!here || here.size === 0) return;
    const events: DeploymentEvent[] = [];
    for (const environment of change.environments) {
      const [current] = await deployed.find(change.workspaceId, {
        action: { id: change.actionId },
        environment,
      });
      events.push(
        current
          ? { type: 'deployment', deployed: current }
          : { type: 'removed', action: change.actionId, slug: change.slug, environment },
      );
    }
    for (const listener of here) listener(events);
  }

  return {
    async get(workspaceId, guidOrSlug, environment) {
      const action = isGuid(guidOrSlug) ? { id: guidOrSlug } : { slug: guidOrSlug };
      const [found] = await deployed.find(workspaceId, { action, environment });
      if (!found) {
        throw new NotFoundError(
          environment === undefined
            ? 'Action not found, or nothing is deployed to its default environment'
            : `Action not found, or nothing is deployed to "${environment}"`,
        );
      }
      return found;
    },

    list(workspaceId, environment) {
      return deployed.find(workspaceId, { environment });
    },

    async announce(change) {
      // After the commit: a broadcast that fails must not fail the deploy; clients catch up when they revalidate.
      await broadcast
        .publish(topic, JSON.stringify(change))
        .catch((error: unknown) => logger.warn({ err: error }, 'deployment not announced'));
    },

    listeners(workspaceId) {
      return listeners.get(workspaceId)?.size ?? 0;
    },

    listen(workspaceId, listener) {
      if (!subscribed) {
        subscribed = true;
        broadcast.subscribe(topic, (message) => {
          onChange(message).catch((error: unknown) =>
            logger.warn({ err: error }, 'deployment event not delivered'),
          );
        });
      }
      const here = listeners.get(workspaceId) ?? new Set<DeploymentListener>();
      listeners.set(workspaceId, here);
      here.add(listener);
      return () => {
        here.delete(listener);
        if (here.size === 0) listeners.delete(workspaceId);
      };
    },
  };
}
