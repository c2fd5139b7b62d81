import type { ActionResponse } from '../features/authoring/actions/responses.js';
import type { SnippetResponse } from '../features/authoring/snippets/responses.js';
import {
  type ActionFile,
  contentHash,
  PromptFileError,
  readActionFile,
  readSnippetFile,
  type SnippetFile,
} from './file-format.js';
import { type FoundFile, findFiles } from './prompt-directory.js';
import { actionFileOf } from './pull.js';
import { type ServiceClient, ServiceError } from './service-client.js';
import { type FileState, readState, stateKey, writeState } from './state.js';

/** What `push` exits with (docs/prompts-as-code.md#exit-statuses): CI tells a conflict from a refusal. */
export const pushExit = { done: 0, failed: 1, refused: 2, conflict: 3 } as const;

export type PushOptions = { directory: string; dryRun: boolean; deploy?: string };

export type PushOutcome = { lines: string[]; exitCode: number };

type Parsed =
  | (FoundFile & { kind: 'action'; file: ActionFile })
  | (FoundFile & { kind: 'snippet'; file: SnippetFile });

type Step = Parsed & { key: string; hash: string; state: FileState | undefined };

/** Reads and checks every file before anything is sent: one bad file, and nothing is pushed. */
function readAll(directory: string): { steps: Step[]; errors: string[] } {
  const errors: string[] = [];
  const parsed: Parsed[] = [];
  for (const found of findFiles(directory)) {
    try {
      if (found.kind === 'action')
        parsed.push({ ...found, kind: 'action', file: readActionFile(found.path, found.text) });
      else parsed.push({ ...found, kind: 'snippet', file: readSnippetFile(found.path, found.text) });
    } catch (error) {
      if (!(error instanceof PromptFileError)) throw error;
      errors.push(error.message);
    }
  }
  const byKey = new Map<string, Parsed>();
  for (const each of parsed) {
    const key = stateKey(each.kind, each.name);
    const other = byKey.get(key);
    if (other)
      errors.push(
        `${each.path}: the ${each.kind === 'action' ? 'slug' : 'name'} "${each.name}" is also ${other.path}'s; each must be unique`,
      );
    byKey.set(key, each);
  }
  const state = readState(directory);
  const steps = parsed.map((each) => {
    const key = stateKey(each.kind, each.name);
    return {
      ...each,
      key,
      hash: contentHash({ ...each.file, folder: each.folder }),
      state: state.files[key],
    } as Step;
  });
  return { steps, errors };
}

/** The body of a save: every field of the file (so the version is exactly the file), and its folder. */
function actionBody(step: Step & { kind: 'action' }) {
  const { template, app, ...fields } = step.file;
  // A chat Action keeps its template in `messages`; an empty body is then no prompt at all.
  const prompt = template === '' && fields.messages ? null : template;
  return { ...fields, app, prompt, folder: step.folder };
}

const sameAction = (step: Step & { kind: 'action' }, action: ActionResponse) =>
  contentHash({ ...actionFileOf(action), folder: action.folder }) === step.hash;

const sameSnippet = (step: Step & { kind: 'snippet' }, snippet: SnippetResponse) =>
  contentHash({ description: snippet.description, content: snippet.content, folder: snippet.folder }) ===
  step.hash;

/**
 * `lectern prompts push`: saves one new version for each file that changed since its pull (with
 * `base_version`, so what someone changed on the service meanwhile is a conflict, left alone),
 * creates what is new, and changes nothing else. Snippets go first: a new prompt may include one.
 */
export async function pushPrompts(client: ServiceClient, options: PushOptions): Promise<PushOutcome> {
  const { steps, errors } = readAll(options.directory);
  if (errors.length > 0) return { lines: [...errors, 'nothing was pushed'], exitCode: pushExit.failed };
  const lines: string[] = [];
  const outcome = { failed: false, conflict: false, refused: false };
  const state = readState(options.directory);
  /** Actions whose file is now a saved version: what `--deploy` deploys. */
  const saved: { step: Step; action: ActionResponse }[] = [];
  const record = (step: Step, guid: string, version: number) => {
    state.files[step.key] = {
      kind: step.kind,
      guid,
      base_version: version,
      hash: step.hash,
      path: step.path,
    };
  };
  const ordered = [
    ...steps.filter((step) => step.kind === 'snippet'),
    ...steps.filter((step) => step.kind === 'action'),
  ];

  /** On a 409: the service already holds exactly this file (an earlier push saved it), or a conflict. */
  async function resolveConflict(step: Step, error: ServiceError): Promise<void> {
    if (step.kind === 'action') {
      const latest = await client
        .request<ActionResponse>('GET', `/v1/actions/${encodeURIComponent(step.name)}`)
        .catch(() => undefined);
      if (latest && sameAction(step, latest)) {
        record(step, latest.guid, latest.version);
        saved.push({ step, action: latest });
        lines.push(`up to date ${step.path} (v${latest.version} on the service is this file)`);
        return;
      }
    } else {
      const latest = await client
        .request<SnippetResponse>('GET', `/v1/snippets/${encodeURIComponent(step.name)}`)
        .catch(() => undefined);
      if (latest && sameSnippet(step, latest)) {
        record(step, latest.guid, latest.version);
        lines.push(`up to date ${step.path} (v${latest.version} on the service is this file)`);
        return;
      }
    }
    outcome.conflict = true;
    lines.push(`conflict ${step.path}: ${error.message}; pull, merge and push again`);
  }

  async function pushOne(step: Step): Promise<void> {
    const base = step.state?.base_version;
    if (step.kind === 'snippet') {
      const { content, description } = step.file;
      const body = { content, description, folder: step.folder };
      const snippet = step.state
        ? await client.request<SnippetResponse>('PUT', `/v1/snippets/${step.state.guid}`, {
            ...body,
            base_version: base,
          })
        : await client.request<SnippetResponse>('POST', '/v1/snippets', { ...body, name: step.name });
      record(step, snippet.guid, snippet.version);
      lines.push(`${step.state ? 'saved' : 'created'} ${step.path} (v${snippet.version})`);
      return;
    }
    const body = actionBody(step);
    const action = step.state
      ? await client.request<ActionResponse>('PUT', `/v1/actions/${step.state.guid}`, {
          ...body,
          base_version: base,
        })
      : await client.request<ActionResponse>('POST', '/v1/actions/create', { ...body, slug: step.name });
    record(step, action.guid, action.version);
    saved.push({ step, action });
    lines.push(`${step.state ? 'saved' : 'created'} ${step.path} (v${action.version})`);
  }

  for (const step of ordered) {
    const changed = step.state?.hash !== step.hash;
    if (!changed) {
      lines.push(`unchanged ${step.path}`);
      continue;
    }
    if (options.dryRun) {
      lines.push(
        step.state
          ? `would save ${step.path} (a new version after v${step.state.base_version})`
          : `would create ${step.path}`,
      );
      continue;
    }
    try {
      await pushOne(step);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error.status === 409 && error.code !== 'gate_failed') await resolveConflict(step, error);
      else {
        outcome.failed = true;
        lines.push(`failed ${step.path}: ${error.message}`);
      }
    }
  }

  if (options.deploy && !options.dryRun) {
    const environment = options.deploy;
    for (const { step, action } of saved) {
      if (action.deployments[environment] === action.version) {
        lines.push(`deployed ${step.path} v${action.version} to ${environment} already`);
        continue;
      }
      try {
        await client.request('POST', `/v1/actions/${action.guid}/deploy`, {
          environment,
          version: action.version,
        });
        lines.push(`deployed ${step.path} v${action.version} to ${environment}`);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        if (error.code === 'gate_failed') outcome.refused = true;
        else outcome.failed = true;
        lines.push(`${error.code === 'gate_failed' ? 'refused' : 'failed'} ${step.path}: ${error.message}`);
      }
    }
  } else if (options.deploy) {
    lines.push(`would deploy what it saves to ${options.deploy}, through its release gate`);
  }
  if (!options.dryRun) writeState(options.directory, state);
  const exitCode = outcome.failed
    ? pushExit.failed
    : outcome.conflict
      ? pushExit.conflict
      : outcome.refused
        ? pushExit.refused
        : pushExit.done;
  return { lines, exitCode };
}
