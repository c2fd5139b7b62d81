import { chmodSync, cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageAbove, packagePath } from '../install-paths.js';

/*
 * A new embedded database starts as a copy of a template: a data dir that `npm run build` made with
 * this install's PGlite (initdb, pgvector and every migration of the build applied, then shut down
 * cleanly). Copying it takes ~0.1 s where initdb and the migrations take ~2.5 s, and the service's
 * WASM heap never grows to what initdb needs. Migrations added after the build still run at start,
 * as they do on an existing data dir.
 */

// A service run from the sources (tsx) finds the template the last build made too.
const templateFolder = packagePath('dist', 'database-template');

/** The installed PGlite's version (its package.json is not exported): a template made by another one is not used. */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return packageAbove(entry, '@electric-sql/pglite').manifest.version ?? 'unknown';
}

export function databaseTemplateDirectory(): string {
  return path.join(templateFolder, `pglite-${pgliteVersion()}`);
}

/**
 * Makes `dataDir` (holding no database) a copy of the template; false when no build made one. The copy
 * is renamed into place whole, so a start stopped halfway leaves no half database behind.
 */
export function copyDatabaseTemplate(dataDir: string, template: string): boolean {
  if (!existsSync(path.join(template, 'PG_VERSION'))) return false;
  const copying = `${dataDir}.${process.pid}.partial`;
  cpSync(template, copying, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(copying, dataDir);
  chmodSync(dataDir, 0o700);
  return true;
}

/**
 * Makes `build` (which creates a data dir in the folder it is given and closes it) the template. The
 * old one is removed first, so that the build runs initdb; the new one is built beside it and renamed
 * into place, so a build that fails leaves no template (new databases run initdb), never half of one.
 */
export async function replaceDatabaseTemplate(
  template: string,
  build: (folder: string) => Promise<string>,
): Promise<void> {
  const building = `${template}.${process.pid}.partial`;
  rmSync(template, { recursive: true, force: true });
  rmSync(building, { recursive: true, force: true });
  const dataDir = await build(building);
  renameSync(dataDir, template);
  rmSync(building, { recursive: true, force: true });
}
