import { randomUUID } from 'node:crypto';
import { templateParseError } from '@lectern/prompt-templates';
import { isGuid } from '../../../core/guid.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  VersionConflictError,
} from '../../../errors.js';
import { isUniqueViolation } from '../../../platform/database/errors.js';
import { createReadCache } from '../../../platform/read-cache.js';
import type { ModelResolver } from '../../models/providers/index.js';
import type { AppService } from '../apps/index.js';
import { type ActionNeighbours, type GateCondition, GateFailedError } from './neighbours.js';
import type {
  ActionListFilter,
  ActionRepository,
  ActionRow,
  ActionVersionRow,
  ActionWithVersion,
} from './repository.js';
import { createRoutingGuards } from './routing-guards.js';
import type { DeployInput } from './schemas.js';
import {
  type FirstVersion,
  firstVersion,
  mergeVersion,
  runnableVersion,
  type VersionChanges,
  type VersionContent,
} from './version.js';

export type ResolvedAction = {
  action: ActionRow;
  version: ActionVersionRow;
  environment: string | null;
  /** An unsaved draft over the latest version: its generations have no version number. */
  draft?: boolean;
};

/** A deploy's outcome: the Action, and the gate's unmet conditions when `force` deployed past them. */
export type Deployed = { action: Action; forcedPast: GateCondition[] };

/** An Action: its latest version and which version each environment runs. */
export type Action = ActionWithVersion & { deployments: Record<string, number> };

/** An Action as lists show it: with the time of its newest generation. */
export type ListedAction = Action & { lastRunAt: Date | null };

/** A saved version with the environments it is deployed to. */
export type ActionVersionEntry = { version: ActionVersionRow; environments: string[] };

/** The Action-level fields a save may change (its name, App, slug…): not versioned. */
type ActionFields = Pick<
  ActionRow,
  'name' | 'slug' | 'description' | 'actionType' | 'defaultEnvironment' | 'appId' | 'folder'
>;

/** A new Action: its fields (defaults for those left out) and its first version. */
export type NewAction = Pick<ActionFields, 'name' | 'appId'> &
  Partial<Omit<ActionFields, 'name' | 'appId'>> & { version: FirstVersion };

/** A save: Action-level changes, the next version's, and (optimistic) the version it started from. */
export type ActionChanges = Partial<ActionFields> & { version: VersionChanges; baseVersion?: number };

/**
 * Works out what a version's templates include (the Snippets feature): the snippet versions to pin
 * and the templates with them included. Refuses a missing snippet or a cycle (400 naming the field).
 */
export type SnippetResolver = (
  workspaceId: string,
  templates: Pick<VersionContent, 'prompt' | 'messages' | 'systemMessage'>,
) => Promise<Pick<ActionVersionRow, 'snippets' | 'resolved'>>;

/**
 * Who saves: their GUID (a person's, or a creator-less key's) and whether they hold the `manage`
 * right, which the changes that could route calls around a release gate need
 * (docs/security.md#release-gates-and-slugs).
 */
export type Saver = { by?: string; manages: boolean };

export interface ActionService {
  /** `saver.by`: who saves version 1 and deploys it. */
  create(workspaceId: string, input: NewAction, saver?: Saver): Promise<Action>;
  /** An Action's GUID and name by GUID or slug, or undefined (Skills and workflow blocks name Actions). */
  find(workspaceId: string, guidOrSlug: string): Promise<{ guid: string; name: string } | undefined>;
  /** A 404 unless the workspace has this Action: a cheap check for the features that name one. */
  require(workspaceId: string, guidOrSlug: string): Promise<void>;
  /** By GUID or slug; another workspace's Action is as missing as an unknown one. */
  get(workspaceId: string, guidOrSlug: string): Promise<Action>;
  /** Newest first; a listed Action also tells when it last ran. */
  list(workspaceId: string, pagination: Pagination, filter?: ActionListFilter): Promise<Page<ListedAction>>;
  /**
   * Saves a new version (latest + 1) from the latest one and the given changes; deploys nothing.
   * Moving the default environment off a gated one, renaming an Action that has a gate, or taking a
   * slug another Action gave up in the last 30 days needs `saver.manages` (403 otherwise).
   */
  update(workspaceId: string, id: string, changes: ActionChanges, saver?: Saver): Promise<Action>;
  /** Moves an environment to a version, unless its release gate is unmet (`input.force` deploys anyway). */
  deploy(workspaceId: string, id: string, input: DeployInput, by?: string): Promise<Deployed>;
  /** Who saved a version (a person's GUID, a creator-less key's, or null); a 404 for a missing one. */
  savedBy(workspaceId: string, id: string, version: number): Promise<string | null>;
  /** The release gate's conditions for deploying `version` to `environment`, or none without a gate. */
  checkGate(
    workspaceId: string,
    id: string,
    target: { version: number; environment: string },
  ): Promise<GateCondition[] | undefined>;
  versions(workspaceId: string, id: string, pagination: Pagination): Promise<Page<ActionVersionEntry>>;
  /**
   * The Action and version a run uses (docs/api.md#actions): `version` runs that version, `environment` the
   * version deployed there, neither the default environment's; a missing one is a 400.
   */
  resolveForRun(
    workspaceId: string,
    guidOrSlug: string,
    selection: { version?: number; environment?: string },
  ): Promise<ResolvedAction>;
  /** The latest version with a draft's fields over it, checked as a save checks them and not saved. */
  resolveDraft(workspaceId: string, guidOrSlug: string, draft: VersionChanges): Promise<ResolvedAction>;
  setDisabled(workspaceId: string, id: string, disabled: boolean): Promise<Action>;
  /**
   * Soft delete: the Action no longer reads or runs; its generations and feedback stay stored. An
   * Action with a release gate is removed only by a saver who `manages` (403 otherwise): its callers
   * would get 404s the gate never saw.
   */
  remove(workspaceId: string, id: string, saver?: Saver): Promise<void>;
}

/** Every template must parse when it is saved, not when it first runs. */
function assertTemplatesParse(fields: Pick<VersionContent, 'prompt' | 'messages' | 'systemMessage'>): void {
  const templates: [string, string | null | undefined][] = [
    ['prompt', fields.prompt],
    ['system_message', fields.systemMessage],
    ...(fields.messages ?? []).map((message, index): [string, string] => [
      `messages.${index}.content`,
      message.content,
    ]),
  ];
  for (const [field, source] of templates) {
    if (source === null || source === undefined) continue;
    const error = templateParseError(source);
    if (error) throw new ValidationError(field, `template does not parse: ${error}`);
  }
}

/** The fields a change gives (not undefined), as the wire names them (`systemMessage` → `system_message`). */
function givenFields(fields: object): string[] {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`));
}

/** A save that only files the Action elsewhere: it makes no new version. */
function isMoveOnly({ version, baseVersion: _base, ...actionChanges }: ActionChanges): boolean {
  const action = givenFields(actionChanges);
  return givenFields(version).length === 0 && action.length === 1 && action[0] === 'folder';
}

function slugConflict(error: unknown): never {
  if (isUniqueViolation(error)) throw new ConflictError('slug: another Action of this workspace has it');
  throw error;
}

/** How long another node may still run a previous deployment after a change (this node forgets at once). */
const runResolutionCacheMs = 5_000;

/** Checks that attached Contexts and Skills exist in the workspace (`attachments.ts`). */
export type AttachmentValidator = (workspaceId: string, version: VersionContent) => Promise<void>;

/** How many times a save without `base_version` is built again on a version another save just made. */
const saveAttempts = 5;

export function createActionService(dependencies: {
  repository: ActionRepository;
  apps: AppService;
  models: ModelResolver;
  validateAttachments: AttachmentValidator;
  resolveSnippets: SnippetResolver;
  neighbours?: ActionNeighbours;
}): ActionService {
  const { repository, apps, models, validateAttachments, resolveSnippets, neighbours = {} } = dependencies;
  const {
    gates = { guard: async () => undefined, gatedEnvironments: async () => [] },
    deploymentsChanged = () => undefined,
    events = async () => undefined,
    whenEnded = async (work) => void (await work()),
    logger,
  } = neighbours;
  const { guard } = gates;
  const routing = createRoutingGuards(repository, gates);
  const runResolutions = createReadCache<ResolvedAction>({ ttlMs: runResolutionCacheMs });
  const changed = (workspaceId: string) => runResolutions.invalidate(`${workspaceId}:`);

  async function withDeployments(row: ActionWithVersion): Promise<Action> {
    const deployments = await repository.deployments([row.action.id]);
    return { ...row, deployments: deployments.get(row.action.id) ?? {} };
  }

  async function requireById(workspaceId: string, id: string): Promise<ActionWithVersion> {
    const row = await repository.findLatest(workspaceId, { id });
    if (!row) throw new NotFoundError('Action not found');
    return row;
  }

  /** The gate's conditions for a deploy target, read where the caller's transaction reads. */
  async function gateOf(workspaceId: string, id: string, target: { version: number; environment: string }) {
    await requireById(workspaceId, id);
    const version = await repository.findVersion(id, target.version);
    if (!version) throw new ValidationError('version', `Action has no version ${target.version}`);
    const deployedVersion = (await repository.deployments([id])).get(id)?.[target.environment];
    return guard({
      workspaceId,
      actionId: id,
      environment: target.environment,
      version: target.version,
      authorId: version.savedById,
      deployedVersion,
    });
  }

  /** Checks a version about to be saved or run, and answers what it includes. */
  async function validateVersion(
    workspaceId: string,
    version: VersionContent,
  ): Promise<Pick<ActionVersionRow, 'snippets' | 'resolved'>> {
    const included = await resolveSnippets(workspaceId, version);
    assertTemplatesParse(included.resolved ?? version);
    await models.validate(workspaceId, version.model);
    await validateAttachments(workspaceId, version);
    return included;
  }

  async function resolveUncached(
    workspaceId: string,
    guidOrSlug: string,
    selection: { version?: number; environment?: string },
  ): Promise<ResolvedAction> {
    const row = await repository.findLatest(
      workspaceId,
      isGuid(guidOrSlug) ? { id: guidOrSlug } : { slug: guidOrSlug },
    );
    if (!row) throw new NotFoundError('Action not found');
    if (row.action.disabled) throw new ValidationError('action', 'this Action is disabled');
    if (selection.version !== undefined) {
      const version = await repository.findVersion(row.action.id, selection.version);
      if (!version) throw new ValidationError('version', `the Action has no version ${selection.version}`);
      return {
        action: row.action,
        version: runnableVersion(version),
        environment: selection.environment ?? null,
      };
    }
    const environment = selection.environment ?? row.action.defaultEnvironment;
    const deployed = (await repository.deployments([row.action.id])).get(row.action.id)?.[environment];
    if (deployed === undefined) {
      throw new ValidationError('environment', `nothing is deployed to "${environment}"`);
    }
    const version = await repository.findVersion(row.action.id, deployed);
    return { action: row.action, version: runnableVersion(version!), environment };
  }

  return {
    async create(workspaceId, input, saver = { manages: false }) {
      const by = saver.by;
      await apps.require(workspaceId, input.appId);
      const version = firstVersion(input.version);
      const included = await validateVersion(workspaceId, version);
      if (input.slug !== undefined)
        await routing.assertSlugAvailable(workspaceId, input.slug, undefined, saver);
      const id = randomUUID();
      await repository
        .insert(
          {
            id,
            workspaceId,
            appId: input.appId,
            slug: input.slug ?? (await routing.newSlug(workspaceId, input.name, saver)),
            name: input.name,
            description: input.description ?? '',
            actionType: input.actionType ?? 'prompt',
            defaultEnvironment: input.defaultEnvironment ?? 'production',
            folder: input.folder ?? '',
            latestVersion: 1,
          },
          { ...version, ...included, savedById: by ?? null },
        )
        .catch(slugConflict);
      changed(workspaceId);
      const created = await withDeployments(await requireById(workspaceId, id));
      const { slug } = created.action;
      await events(workspaceId, {
        type: 'action.version_saved',
        data: {
          action: id,
          slug,
          version: 1,
          saved_by_id: by ?? null,
          changed_fields: givenFields(input.version),
        },
      });
      for (const [environment, version] of Object.entries(created.deployments))
        await events(workspaceId, {
          type: 'action.deployed',
          data: { action: id, slug, version, environment, deployed_by: by ?? null },
        });
      deploymentsChanged({
        workspaceId,
        actionId: id,
        slug: created.action.slug,
        environments: Object.keys(created.deployments),
      });
      return created;
    },

    async find(workspaceId, guidOrSlug) {
      const row = await repository.findLatest(
        workspaceId,
        isGuid(guidOrSlug) ? { id: guidOrSlug } : { slug: guidOrSlug },
      );
      return row && { guid: row.action.id, name: row.action.name };
    },

    async require(workspaceId, guidOrSlug) {
      const where = isGuid(guidOrSlug) ? { id: guidOrSlug } : { slug: guidOrSlug };
      if (!(await repository.exists(workspaceId, where))) throw new NotFoundError('Action not found');
    },

    async get(workspaceId, guidOrSlug) {
      const row = await repository.findLatest(
        workspaceId,
        isGuid(guidOrSlug) ? { id: guidOrSlug } : { slug: guidOrSlug },
      );
      if (!row) throw new NotFoundError('Action not found');
      return withDeployments(row);
    },

    async list(workspaceId, pagination, filter) {
      const { rows, total } = await repository.list(workspaceId, pagination.skip, pagination.limit, filter);
      const deployments = await repository.deployments(rows.map((row) => row.action.id));
      return {
        rows: rows.map((row) => ({ ...row, deployments: deployments.get(row.action.id) ?? {} })),
        total,
      };
    },

    async update(workspaceId, id, changes, saver = { manages: false }) {
      const { version: versionChanges, baseVersion, ...actionChanges } = changes;
      for (let attempt = 1; ; attempt += 1) {
        const current = await requireById(workspaceId, id);
        const latest = current.action.latestVersion;
        if (baseVersion !== undefined && baseVersion !== latest)
          throw new VersionConflictError(`Action "${current.action.slug}"`, latest, baseVersion);
        await routing.assertMayRoute(current, actionChanges, saver);
        if (actionChanges.appId !== undefined) await apps.require(workspaceId, actionChanges.appId);
        if (isMoveOnly(changes)) {
          if (!(await repository.move(workspaceId, id, actionChanges.folder!)))
            throw new NotFoundError('Action not found');
          changed(workspaceId);
          return withDeployments(await requireById(workspaceId, id));
        }
        const merged = mergeVersion(current.version, versionChanges);
        const included = await validateVersion(workspaceId, merged);
        const outcome = await repository
          .insertVersion(workspaceId, id, actionChanges, latest, {
            ...merged,
            ...included,
            savedById: saver.by ?? null,
          })
          .catch(slugConflict);
        if (outcome === undefined) throw new NotFoundError('Action not found');
        if ('saved' in outcome) {
          changed(workspaceId);
          const saved = await withDeployments(await requireById(workspaceId, id));
          await events(workspaceId, {
            type: 'action.version_saved',
            data: {
              action: id,
              slug: saved.action.slug,
              version: saved.action.latestVersion,
              saved_by_id: saver.by ?? null,
              changed_fields: [...givenFields(versionChanges), ...givenFields(actionChanges)],
            },
          });
          return saved;
        }
        // Another save made a version meanwhile: with base_version that is a conflict; without, this
        // save is built again on the new version, so neither is lost.
        if (baseVersion !== undefined || attempt === saveAttempts)
          throw new VersionConflictError(
            `Action "${current.action.slug}"`,
            outcome.conflict,
            baseVersion ?? latest,
          );
      }
    },

    async deploy(workspaceId, id, input, by) {
      const conditions = await gateOf(workspaceId, id, input);
      const unmet = conditions?.filter((condition) => !condition.met) ?? [];
      const { environment, version } = input;
      if (unmet.length > 0 && !input.force) {
        const { slug } = (await requireById(workspaceId, id)).action;
        const refused = {
          type: 'deployment.refused' as const,
          data: {
            action: id,
            slug,
            version,
            environment,
            refused_for: by ?? null,
            unmet: unmet.map((condition) => condition.condition),
          },
        };
        // Told once the refused request's transaction has rolled back, or it would roll back too.
        await whenEnded(() =>
          events(workspaceId, refused).catch((error: unknown) =>
            logger?.error({ err: error }, 'could not record a refusal'),
          ),
        );
        throw new GateFailedError(environment, version, unmet);
      }
      await repository.deploy(id, environment, version, by);
      changed(workspaceId);
      const action = await withDeployments(await requireById(workspaceId, id));
      await events(workspaceId, {
        type: 'action.deployed',
        data: { action: id, slug: action.action.slug, version, environment, deployed_by: by ?? null },
      });
      deploymentsChanged({
        workspaceId,
        actionId: id,
        slug: action.action.slug,
        environments: [input.environment],
      });
      return { action, forcedPast: unmet };
    },

    checkGate: gateOf,

    async savedBy(workspaceId, id, versionNumber) {
      await requireById(workspaceId, id);
      const version = await repository.findVersion(id, versionNumber);
      if (!version) throw new NotFoundError(`Action has no version ${versionNumber}`);
      return version.savedById;
    },

    async versions(workspaceId, id, pagination) {
      await requireById(workspaceId, id);
      const { rows, total } = await repository.listVersions(id, pagination.skip, pagination.limit);
      const deployed = (await repository.deployments([id])).get(id) ?? {};
      const environmentsOf = (version: number) =>
        Object.entries(deployed)
          .filter(([, deployedVersion]) => deployedVersion === version)
          .map(([environment]) => environment);
      return {
        rows: rows.map((row) => ({ version: row, environments: environmentsOf(row.version) })),
        total,
      };
    },

    resolveForRun(workspaceId, guidOrSlug, selection) {
      const key = `${workspaceId}:${guidOrSlug}:${selection.version ?? ''}:${selection.environment ?? ''}`;
      return runResolutions.get(key, () => resolveUncached(workspaceId, guidOrSlug, selection));
    },

    async resolveDraft(workspaceId, guidOrSlug, draft) {
      const row = await repository.findLatest(
        workspaceId,
        isGuid(guidOrSlug) ? { id: guidOrSlug } : { slug: guidOrSlug },
      );
      if (!row) throw new NotFoundError('Action not found');
      if (row.action.disabled) throw new ValidationError('action', 'this Action is disabled');
      const merged = mergeVersion(row.version, draft);
      const included = await validateVersion(workspaceId, merged).catch((error: unknown) => {
        // The draft's fields arrive under `draft`: name them where the request has them.
        if (error instanceof ValidationError) throw new ValidationError(`draft.${error.field}`, error.reason);
        throw error;
      });
      return {
        action: row.action,
        version: runnableVersion({ ...row.version, ...merged, ...included }),
        environment: null,
        draft: true,
      };
    },

    async setDisabled(workspaceId, id, disabled) {
      if (!(await repository.setFlags(workspaceId, id, { disabled })))
        throw new NotFoundError('Action not found');
      changed(workspaceId);
      const action = await withDeployments(await requireById(workspaceId, id));
      const environments = Object.keys(action.deployments);
      deploymentsChanged({ workspaceId, actionId: id, slug: action.action.slug, environments });
      return action;
    },

    async remove(workspaceId, id, saver = { manages: false }) {
      const before = await repository.findLatest(workspaceId, { id });
      if (before && !saver.manages) {
        const gated = await gates.gatedEnvironments(id);
        if (gated.length > 0)
          throw new ForbiddenError(
            `this Action has a release gate (${gated.join(', ')}), and applications call it there; only an admin or an owner deletes it`,
          );
      }
      if (!(await repository.setFlags(workspaceId, id, { deletedAt: new Date() })))
        throw new NotFoundError('Action not found');
      changed(workspaceId);
      const environments = Object.keys((await repository.deployments([id])).get(id) ?? {});
      deploymentsChanged({ workspaceId, actionId: id, slug: before?.action.slug ?? '', environments });
    },
  };
}
