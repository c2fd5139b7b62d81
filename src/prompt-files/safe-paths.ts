import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UnsafePathError } from './errors.js';

// Every write and removal of `lectern prompts` goes through here: the CLI never writes, replaces or
// removes anything outside the directory it was given (docs/security.md#prompts-as-code).

/**
 * The file `relative` names inside `directory`, checked: a relative path that stays inside (no `..`,
 * not absolute: a tampered state file or a folder named so on the service cannot reach out), and no
 * symbolic link on the way (a linked folder or file would send the write elsewhere). Folders that do
 * not exist yet are fine: they are made as real folders.
 */
export function insidePath(directory: string, relative: string): string {
  const normalized = path.posix.normalize(relative.replaceAll('\\', '/'));
  if (path.posix.isAbsolute(normalized) || normalized === '..' || normalized.startsWith('../'))
    throw new UnsafePathError(relative, 'the path leaves the prompts directory');
  let walked = directory;
  for (const part of normalized.split('/')) {
    walked = path.join(walked, part);
    if (!existsSync(walked) && !isLink(walked)) break;
    if (isLink(walked)) throw new UnsafePathError(relative, `${walked} is a symbolic link`);
  }
  return path.join(directory, normalized);
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Writes a file through a temporary one renamed into place, so a half-written file is never left. */
export function writeInside(directory: string, relative: string, text: string): void {
  const target = insidePath(directory, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  // Made again after mkdir: a link put in the way meanwhile is refused, not followed.
  insidePath(directory, relative);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  renameSync(temporary, target);
}

export function removeInside(directory: string, relative: string): void {
  rmSync(insidePath(directory, relative), { force: true });
}
