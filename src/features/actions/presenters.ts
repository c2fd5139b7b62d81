import type { ActionVersionRow } from './repository.js';
import type { Action, ActionVersionEntry, ListedAction } from './service.js';

function presentVersionFields(version: ActionVersionRow) {
  return {
    model: version.model,
    model_config: version.modelConfig,
    prompt: version.prompt,
    messages: version.messages,
    system_message: version.systemMessage,
    contexts: version.contexts,
    skills: version.skills,
    tools: version.tools,
  };
}

export function presentAction({ action, version, deployments }: Action) {
  return {
    guid: action.id,
    slug: action.slug,
    name: action.name,
    description: action.description,
    app: action.appId,
    action_type: action.actionType,
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
export function presentListedAction(listed: ListedAction) {
  return { ...presentAction(listed), last_run_at: listed.lastRunAt?.toISOString() ?? null };
}

/** A saved version as `GET …/versions` lists it. */
export function presentActionVersion({ version, environments }: ActionVersionEntry) {
  return {
    version: version.version,
    ...presentVersionFields(version),
    environments,
    created_at: version.createdAt.toISOString(),
  };
}
