// Builds the client into dist/: ES modules (the entries share chunks, so `instanceof` holds across
// them), one CommonJS bundle whose `klu` entry is a view of it, and declarations (tsc). The prompt
// template rules are bundled in from @lectern/prompt-templates; liquidjs stays a dependency.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const distribution = path.join(root, 'dist');
rmSync(distribution, { recursive: true, force: true });

const shared = {
  absWorkingDir: root,
  bundle: true,
  platform: 'neutral',
  target: 'es2022',
  external: ['liquidjs', 'node:*'],
  sourcemap: 'linked',
  logLevel: 'warning',
};

await build({
  ...shared,
  entryPoints: { index: 'src/index.ts', klu: 'src/klu/index.ts' },
  outdir: 'dist',
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});

await build({
  ...shared,
  entryPoints: { index: 'src/index.ts' },
  outdir: 'dist',
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
});
writeFileSync(
  path.join(distribution, 'klu.cjs'),
  "'use strict';\n// The Klu-compatible entry: the same classes as index.cjs, so instanceof holds across both.\nmodule.exports = require('./index.cjs').kluModule;\n",
);

const typescript = path.resolve(root, '../../node_modules/typescript/bin/tsc');
execFileSync(process.execPath, [typescript, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
