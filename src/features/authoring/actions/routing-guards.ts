import { ForbiddenError } from '../../../errors.js';
import type { ActionRepository, ActionWithVersion } from './repository.js';

/** Whether the one saving holds the `manage` right (service.ts's Saver). */
type Saver = { manages: boolean };

/** How long a slug given up by a rename stays reserved for admins and owners. */
const releasedSlugReservationMs = 30 * 24 * 60 * 60_000;

/**
 * Calls that name no environment run an Action's default environment, and applications call
 * Actions by slug: the changes that could route those calls around a release gate need the
 * `manage` right (docs/security.md#release-gates-and-slugs). `403` naming the field otherwise.
 */
export function createRoutingGuards(
  repository: Pick<ActionRepository, 'slugReleasedSince' | 'freeSlug'>,
  gates: { gatedEnvironments(actionId: string): Promise<string[]> },
) {
  const reservedSince = () => new Date(Date.now() - releasedSlugReservationMs);

  /** 403 when a saver without `manage` takes a slug another Action gave up within the reservation. */
  async function assertSlugAvailable(
    workspaceId: string,
    slug: string,
    actionId: string | undefined,
    saver: Saver,
  ): Promise<void> {
    if (saver.manages) return;
    if (await repository.slugReleasedSince(workspaceId, slug, reservedSince(), actionId))
      throw new ForbiddenError(
        `slug: "${slug}" was given up by another Action within 30 days; only an admin or an owner may reuse it sooner`,
      );
  }

  return {
    assertSlugAvailable,

    /** A free slug from the name that no other Action gave up lately (for a saver without `manage`). */
    async newSlug(workspaceId: string, name: string, saver: Saver): Promise<string> {
      const since = reservedSince();
      for (let attempt = 1; ; attempt += 1) {
        const slug = await repository.freeSlug(workspaceId, attempt === 1 ? name : `${name} ${attempt}`);
        const reserved =
          !saver.manages && (await repository.slugReleasedSince(workspaceId, slug, since, undefined));
        if (!reserved || attempt >= 50) return slug;
      }
    },

    /** Moving the default environment off a gated one, or renaming a gated Action, needs `manage`. */
    async assertMayRoute(
      current: ActionWithVersion,
      changes: { defaultEnvironment?: string; slug?: string },
      saver: Saver,
    ) {
      if (saver.manages) return;
      const movesDefault =
        changes.defaultEnvironment !== undefined &&
        changes.defaultEnvironment !== current.action.defaultEnvironment;
      const renames = changes.slug !== undefined && changes.slug !== current.action.slug;
      if (!movesDefault && !renames) return;
      const gated = await gates.gatedEnvironments(current.action.id);
      if (movesDefault && gated.includes(current.action.defaultEnvironment))
        throw new ForbiddenError(
          `default_environment: "${current.action.defaultEnvironment}" has a release gate; only an admin or an owner moves this Action's default environment`,
        );
      if (renames && gated.length > 0)
        throw new ForbiddenError(
          'slug: this Action has a release gate, and applications call it by its slug; only an admin or an owner renames it',
        );
      if (renames)
        await assertSlugAvailable(current.action.workspaceId, changes.slug!, current.action.id, saver);
    },
  };
}
