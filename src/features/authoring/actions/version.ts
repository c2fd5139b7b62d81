import { givenFields } from '../../../core/defined.js';
import type { ActionVersionRow, NewActionVersion } from './repository.js';

/**
 * What a version holds, every field given (a saved version's row without its keys). Its snippet
 * pins and resolved templates are not part of it: they are worked out anew at each save.
 */
export type VersionContent = Required<
  Omit<NewActionVersion, 'createdAt' | 'savedById' | 'snippets' | 'resolved'>
>;

/** Changes to a version: a field left out keeps the value it had. */
export type VersionChanges = Partial<VersionContent>;

/** A new Action's first version: a model, and whatever else is given. */
export type FirstVersion = VersionChanges & Pick<VersionContent, 'model'>;

const emptyVersion: Omit<VersionContent, 'model'> = {
  modelConfig: {},
  prompt: null,
  messages: null,
  systemMessage: null,
  contexts: [],
  skills: [],
  tools: [],
};

/** The content of a saved version. */
export function contentOf({
  actionId: _action,
  version: _version,
  createdAt: _at,
  savedById: _savedBy,
  snippets: _snippets,
  resolved: _resolved,
  ...content
}: ActionVersionRow) {
  return content satisfies VersionContent;
}

/**
 * The version as it runs: its templates with the snippets they include put in (a run,
 * `GET /v1/prompts` and `gateway_payload` all render this, so the client renders what the service does).
 */
export function runnableVersion(row: ActionVersionRow): ActionVersionRow {
  return row.resolved ? { ...row, ...row.resolved } : row;
}

/** A new Action's first version: what was given, the rest empty. */
export function firstVersion(given: FirstVersion): VersionContent {
  return { ...emptyVersion, ...givenFields(given), model: given.model };
}

/** The next version: the given changes over a saved version's content. */
export function mergeVersion(latest: ActionVersionRow, changes: VersionChanges): VersionContent {
  return { ...contentOf(latest), ...givenFields(changes) };
}
