// Lint: a table is written only by the feature whose tables.ts declares it
// (docs/architecture.md#one-writer-per-table). Its repository
// holds every INSERT, UPDATE and DELETE of the table, so the rules of a record (what a change must
// also change, what it must check) live in one place. Other features may read the table in their own
// statements' joins: one statement that joins answers what two calls across features would answer in
// two round trips, without a consistent view between them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const source = path.join(root, 'src');

/**
 * The writes of another feature's table that are allowed, and why. Keep this short: each entry is a
 * rule some reader has to know about.
 */
const sharedWrites = {
  // A Context's BM25 counts (document_count, term_total) change in the transaction that writes the
  // Documents' postings, which the documents feature owns; the contexts feature writes the rest.
  contexts: ['features/knowledge/documents'],
};

function* sourceFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.ts$/.test(entry.name)) yield full;
  }
}

/** The part a file belongs to: `features/<wing>/<feature>` or `platform/<part>`. */
function partOf(file) {
  const parts = path.relative(source, file).split(path.sep);
  return parts[0] === 'features' ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
}

// A table belongs to the part whose tables.ts declares it.
const files = [...sourceFiles(path.join(source, 'features')), ...sourceFiles(path.join(source, 'platform'))];
const tables = files
  .filter((file) => path.basename(file) === 'tables.ts')
  .flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map(
      ([, name, table]) => ({
        name,
        table,
        owner: partOf(file),
      }),
    ),
  );

/** Whether `text` writes `table`: through drizzle (`.insert(documents)`) or in SQL (`UPDATE contexts`). */
function writes(text, { name, table }) {
  return (
    new RegExp(`\\.(insert|update|delete)\\(\\s*${name}\\b`).test(text) ||
    new RegExp(`(INSERT INTO|UPDATE|DELETE FROM)\\s+("?${table}\\b|\\$\\{${name}\\})`).test(text)
  );
}

const problems = [];
for (const file of files) {
  const writer = partOf(file);
  const text = readFileSync(file, 'utf8');
  for (const table of tables) {
    if (table.owner === writer || (sharedWrites[table.table] ?? []).includes(writer) || !writes(text, table))
      continue;
    problems.push(
      `${path.relative(root, file)} writes ${table.table}, a table of ${table.owner}: ` +
        'move the write into that feature’s repository, or add the exception to sharedWrites with why',
    );
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
