import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the package's own files are (migrations, the console build, worker entries), whichever tree
 * this process runs: the TypeScript sources (tsx, the tests) or the bundled build in `dist/`, where a
 * module's own location no longer says where it sat in `src/`.
 */
const here = fileURLToPath(import.meta.url);

/** Whether this process runs the sources (`.ts` through tsx or vitest) rather than the build. */
export const runsSources = here.endsWith('.ts');

type Manifest = { name?: string; version?: string };

/** The nearest folder above `file` with a package.json, of the package `name` when one is given. */
export function packageAbove(file: string, name?: string): { folder: string; manifest: Manifest } {
  for (let folder = path.dirname(file); ; ) {
    const manifestFile = path.join(folder, 'package.json');
    if (existsSync(manifestFile)) {
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
      if (name === undefined || manifest.name === name) return { folder, manifest };
    }
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`No package.json${name ? ` of ${name}` : ''} above ${file}`);
    folder = parent;
  }
}

const root = packageAbove(here).folder;

/** A path inside the package: `packagePath('drizzle')`. */
export function packagePath(...parts: string[]): string {
  return path.join(root, ...parts);
}

/**
 * The URL of the module `src/<name>.ts` as this process runs it: the source itself, or the build's
 * entry for it, `dist/<name>.js` (every worker module is an entry of its own in the bundle).
 */
export function ownModuleUrl(name: string): string {
  return pathToFileURL(runsSources ? packagePath('src', `${name}.ts`) : packagePath('dist', `${name}.js`))
    .href;
}
