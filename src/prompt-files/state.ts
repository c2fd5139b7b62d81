import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
  return JSON.parse(readFileSync(file, 'utf8')) as PromptState;
}

/** Written with sorted keys, so the committed file changes only where a prompt did. */
export function writeState(directory: string, state: PromptState): void {
  mkdirSync(path.dirname(stateFile(directory)), { recursive: true });
  const files = Object.fromEntries(Object.entries(state.files).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(stateFile(directory), `${JSON.stringify({ files }, null, 2)}\n`);
}
