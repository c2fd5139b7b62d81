// Lint: one feature writes each table (docs/architecture.md#one-writer-per-table). Its repository
// holds every INSERT, UPDATE and DELETE of the table, so the rules of a record (what a change must
// also change, what it must check) live in one place. Other features may read the table in their own
// statements' joins: one statement that joins answers what two calls across features would answer in
// two round trips, without a consistent view between them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const features = path.join(root, 'src/features');

/**
 * The writes of another feature's table that are allowed, and why. Keep this short: each entry is a
 * rule some reader has to know about.
 */
const sharedWrites = {
  // A Context's BM25 counts (document_count, term_total) change in the transaction that writes the
  // Documents' postings, which the documents feature owns; the contexts feature writes the rest.
  contexts: ['documents'],
};

const schema = readFileSync(path.join(root, 'src/platform/database/schema.ts'), 'utf8');
const tables = [...schema.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map(([, name, table]) => ({
  name,
  table,
}));

function* sourceFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.ts$/.test(entry.name)) yield full;
  }
}

/** Whether `source` writes `table`: through drizzle (`.insert(documents)`) or in SQL (`UPDATE contexts`). */
function writes(source, { name, table }) {
  return (
    new RegExp(`\\.(insert|update|delete)\\(\\s*${name}\\b`).test(source) ||
    new RegExp(`(INSERT INTO|UPDATE|DELETE FROM)\\s+("?${table}\\b|\\$\\{${name}\\})`).test(source)
  );
}

const writers = new Map(tables.map((table) => [table.table, new Map()]));
for (const file of sourceFiles(features)) {
  const feature = path.relative(features, file).split(path.sep)[0];
  const source = readFileSync(file, 'utf8');
  for (const table of tables)
    if (writes(source, table)) writers.get(table.table).set(feature, path.relative(root, file));
}

const problems = [];
for (const [table, byFeature] of writers) {
  const allowed = sharedWrites[table] ?? [];
  const owners = [...byFeature.keys()].filter((feature) => !allowed.includes(feature));
  if (owners.length > 1)
    problems.push(
      `${table} is written by ${owners.length} features (${[...byFeature.values()].join(', ')}): ` +
        'move the writes into one feature’s repository, or add the exception to sharedWrites with why',
    );
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
