import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const projectRoot = new URL('../..', import.meta.url).pathname;

function newestModification(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Process tests run `dist/main.js`, as a user does; starting compiled JavaScript takes a fraction of
 * what starting the sources through tsx takes. `npm ci` builds it; this rebuilds it when a source
 * file changed since, so a developer's edit is what the process tests run.
 */
export function ensureBuilt(): void {
  const entry = path.join(projectRoot, 'dist/main.js');
  const sources = path.join(projectRoot, 'src');
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestModification(sources)) return;
  execFileSync(
    process.execPath,
    [path.join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: projectRoot,
      stdio: 'inherit',
    },
  );
}
