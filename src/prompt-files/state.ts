import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PromptFileError } from './errors.js';
import { writeInside } from './safe-paths.js';

// `DIR/.lectern/state.json`: what the last pull or push saw of each file, so a push knows what
// changed since (docs/prompts-as-code.md#the-files). Committed with the files.

export type FileKind = 'action' | 'snippet';

export type FileState = {
  kind: FileKind;
  guid: string;
  /** The version the file was pulled or pushed at: a push saves with it as `base_version`. */
  base_version: number;
  /** What the file meant then (`contentHash`): an equal hash means it has not changed. */
  hash: string;
  /** The file, relative to the directory. */
  path: string;
};

/** Each file's state by its kind and name (`action:<slug>`, `snippet:<name>`): a moved file keeps its state. */
export type PromptState = { files: Record<string, FileState> };

export const stateKey = (kind: FileKind, name: string) => `${kind}:${name}`;

const stateFile = (directory: string) => path.join(directory, '.lectern', 'state.json');

export function readState(directory: string): PromptState {
  const file = stateFile(directory);
  if (!existsSync(file)) return { files: {} };
  let state: PromptState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as PromptState;
  } catch (error) {
    throw new PromptFileError(
      '.lectern/state.json',
      undefined,
      `is not valid JSON (${(error as Error).message})`,
    );
  }
  if (!state || typeof state.files !== 'object' || state.files === null)
    throw new PromptFileError('.lectern/state.json', undefined, 'has no "files" map');
  return state;
}

/** Written with sorted keys, so the committed file changes only where a prompt did. */
export function writeState(directory: string, state: PromptState): void {
  const files = Object.fromEntries(Object.entries(state.files).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeInside(directory, '.lectern/state.json', `${JSON.stringify({ files }, null, 2)}\n`);
}
