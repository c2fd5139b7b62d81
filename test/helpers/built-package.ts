import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { databaseTemplateDirectory } from '../../src/platform/database/template.js';

const projectRoot = new URL('../..', import.meta.url).pathname;

function newestModification(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether `output` is missing or older than a file under `sources`. */
function stale(output: string, sources: string): boolean {
  return !existsSync(output) || statSync(output).mtimeMs < newestModification(sources);
}

// The test runner sets NODE_ENV=test; Vite would take it and bundle React's development build,
// which is not what `npm ci` builds and serves.
const run = (script: string, ...args: string[]) =>
  execFileSync(process.execPath, [path.join(projectRoot, script), ...args], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });

/**
 * Process tests run `dist/main.js`, as a user does; starting the bundle takes a fraction of what
 * starting the sources through tsx takes, and the console tests need its build in `dist/web`.
 * `npm ci` builds both, and the database template new data dirs are copied from; this rebuilds any
 * of them when a source file (or a migration) changed since, so a developer's edit is what the tests run.
 */
export function ensureBuilt(): void {
  if (stale(path.join(projectRoot, 'dist/main.js'), path.join(projectRoot, 'src'))) run('scripts/bundle.mjs');
  if (stale(path.join(databaseTemplateDirectory(), 'PG_VERSION'), path.join(projectRoot, 'drizzle')))
    run('dist/platform/database/write-template.js');
  if (stale(path.join(projectRoot, 'dist/web/index.html'), path.join(projectRoot, 'web/src')))
    run('node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn');
}
