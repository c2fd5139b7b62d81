import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const temporaryDirectories: string[] = [];

/** A new directory under the system's temporary one, removed when the test file ends. */
export function temporaryDirectory(prefix = 'lectern-'): string {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  temporaryDirectories.push(directory);
  return directory;
}

/** Removes the file's temporary directories (test/setup/temporary-directories.ts, after its hooks). */
export function removeTemporaryDirectories(): void {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
}
