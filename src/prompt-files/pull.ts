import type { ActionResponse } from '../features/authoring/actions/responses.js';
import type { SnippetResponse } from '../features/authoring/snippets/responses.js';
import {
  type ActionFile,
  contentHash,
  type SnippetFile,
  writeActionFile,
  writeSnippetFile,
} from './file-format.js';
import { relativePath } from './prompt-directory.js';
import { removeInside, writeInside } from './safe-paths.js';
import type { ServiceClient } from './service-client.js';
import { type FileKind, type PromptState, readState, stateKey, writeState } from './state.js';

/** The most one list request answers: 500 Actions are one request. */
const pageSize = 1000;

async function everything<Row>(client: ServiceClient, path: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let skip = 0; ; skip += pageSize) {
    const page = await client.request<{ data: Row[]; total_count: number }>(
      'GET',
      `${path}?skip=${skip}&limit=${pageSize}`,
    );
    rows.push(...page.data);
    if (page.data.length < pageSize || rows.length >= page.total_count) return rows;
  }
}

/** The file form of an Action's latest version. */
export function actionFileOf(action: ActionResponse): ActionFile {
  return {
    app: action.app,
    name: action.name,
    description: action.description,
    model: action.model,
    model_config: action.model_config,
    system_message: action.system_message,
    messages: action.messages,
    contexts: action.contexts,
    skills: action.skills,
    tools: action.tools,
    template: action.prompt ?? '',
  };
}

/**
 * `lectern prompts pull`: writes every Action's latest version and every snippet into the directory,
 * removes the files of ones that are gone since the last pull, and records each file's GUID, version
 * and content in `.lectern/state.json`. Answers one line per file written or removed.
 */
export async function pullPrompts(client: ServiceClient, directory: string): Promise<string[]> {
  const [actions, snippets] = await Promise.all([
    everything<ActionResponse>(client, '/v1/actions'),
    everything<SnippetResponse>(client, '/v1/snippets'),
  ]);
  const before = readState(directory);
  const state: PromptState = { files: {} };
  const lines: string[] = [];
  /** Writes one file and records what it was pulled as. */
  const pulled = (
    kind: FileKind,
    record: { guid: string; version: number; folder: string },
    name: string,
    content: ActionFile | SnippetFile,
    text: string,
  ) => {
    const relative = relativePath(kind, record.folder, name);
    writeInside(directory, relative, text);
    state.files[stateKey(kind, name)] = {
      kind,
      guid: record.guid,
      base_version: record.version,
      hash: contentHash({ ...content, folder: record.folder }),
      path: relative,
    };
    lines.push(`pulled ${relative} (v${record.version})`);
  };
  for (const action of actions) {
    const file = actionFileOf(action);
    pulled('action', action, action.slug, file, writeActionFile(file, action.deployments));
  }
  for (const snippet of snippets) {
    const file = { description: snippet.description, content: snippet.content };
    pulled('snippet', snippet, snippet.name, file, writeSnippetFile(file));
  }
  const written = new Set(Object.values(state.files).map((each) => each.path));
  for (const [key, old] of Object.entries(before.files))
    if (!state.files[key] && !written.has(old.path)) {
      removeInside(directory, old.path);
      lines.push(`removed ${old.path} (gone from the service)`);
    } else if (state.files[key] && state.files[key].path !== old.path && !written.has(old.path)) {
      removeInside(directory, old.path);
    }
  writeState(directory, state);
  return lines;
}
