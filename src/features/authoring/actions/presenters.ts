import type { VersionDiffResponse } from '../../identity/audit/responses.js';
import type { ActionVersionRow } from './repository.js';
import type {
  ActionResponse,
  ActionVersionResponse,
  ListedActionResponse,
  VersionFields,
} from './responses.js';
import type { CreateActionInput, DraftVersionInput, UpdateActionInput } from './schemas.js';
import type { Action, ActionChanges, ActionVersionEntry, ListedAction, NewAction } from './service.js';
import type { VersionChanges } from './version.js';

// The version fields' wire names, both ways, in one place: presentVersionFields writes them,
// versionFromWire reads them; services and the repository know the domain's names only.

export function presentVersionFields(version: ActionVersionRow): VersionFields {
  return {
    model: version.model,
    model_config: version.modelConfig,
    prompt: version.prompt,
    messages: version.messages,
    system_message: version.systemMessage,
    contexts: version.contexts,
    skills: version.skills,
    tools: version.tools,
    snippets: Object.fromEntries(Object.entries(version.snippets).map(([name, pin]) => [name, pin.version])),
  };
}

export function presentAction({ action, version, deployments }: Action): ActionResponse {
  return {
    guid: action.id,
    slug: action.slug,
    name: action.name,
    description: action.description,
    app: action.appId,
    action_type: action.actionType,
    folder: action.folder,
    ...presentVersionFields(version),
    version: action.latestVersion,
    default_environment: action.defaultEnvironment,
    deployments,
    disabled: action.disabled,
    created_at: action.createdAt.toISOString(),
    updated_at: action.updatedAt.toISOString(),
  };
}

/** An Action in a list: the record and when it last ran (its newest generation; null when never). */
export function presentListedAction(listed: ListedAction): ListedActionResponse {
  return { ...presentAction(listed), last_run_at: listed.lastRunAt?.toISOString() ?? null };
}

/** A saved version as `GET …/versions` lists it. */
export function presentActionVersion({ version, environments }: ActionVersionEntry): ActionVersionResponse {
  return {
    version: version.version,
    ...presentVersionFields(version),
    environments,
    saved_by_id: version.savedById,
    created_at: version.createdAt.toISOString(),
  };
}

/** A request's version fields as version changes (a field left out stays as it was). */
export function versionFromWire(fields: DraftVersionInput): VersionChanges {
  return {
    model: fields.model,
    modelConfig: fields.model_config,
    prompt: fields.prompt,
    messages: fields.messages,
    systemMessage: fields.system_message,
    contexts: fields.contexts,
    skills: fields.skills,
    tools: fields.tools,
  };
}

/** A request's Action-level fields (not versioned), a field left out as undefined. */
function actionFieldsFromWire(body: UpdateActionInput): Omit<ActionChanges, 'version'> {
  return {
    name: body.name,
    appId: body.app,
    slug: body.slug,
    description: body.description,
    actionType: body.action_type,
    defaultEnvironment: body.default_environment,
    folder: body.folder,
  };
}

/** `POST /v1/actions/create` as a new Action. */
export function newActionFromWire(body: CreateActionInput): NewAction {
  return {
    ...actionFieldsFromWire(body),
    name: body.name,
    appId: body.app,
    version: { ...versionFromWire(body), model: body.model },
  };
}

/** `PUT /v1/actions/{guid}` as a save: Action-level changes and the next version's. */
export function actionChangesFromWire(body: UpdateActionInput): ActionChanges {
  return { ...actionFieldsFromWire(body), version: versionFromWire(body), baseVersion: body.base_version };
}

/**
 * What a saved version changed, field by field in the wire's names, for the audit log: the
 * version numbers and each field whose value differs, before and after.
 */
export function versionDiff(before: ActionVersionRow, after: ActionVersionRow): VersionDiffResponse {
  const old: Record<string, unknown> = presentVersionFields(before);
  const now: Record<string, unknown> = presentVersionFields(after);
  const fields = Object.fromEntries(
    Object.keys(now)
      .filter((name) => JSON.stringify(old[name]) !== JSON.stringify(now[name]))
      .map((name) => [name, { before: old[name] ?? null, after: now[name] ?? null }]),
  );
  return { from_version: before.version, to_version: after.version, fields };
}
