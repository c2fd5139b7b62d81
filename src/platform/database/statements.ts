import { type SQL, sql } from 'drizzle-orm';

// Several features' writes as one statement: each is a named `WITH` query of a statement that the
// repositories build, so a write that must be whole (a logged batch and its traces) is whole without a
// transaction. On the embedded database a transaction holds its one thread from BEGIN to COMMIT,
// across the request thread's work between its statements; one statement holds it only while it runs.

/** A part of one statement: a named `WITH` query. */
export type NamedStatement = { name: string; statement: SQL };

/** `WITH` the parts, then `last`. Data-modifying parts all run, to completion, whatever `last` reads. */
export function oneStatement(parts: NamedStatement[], last: SQL): SQL {
  const named = parts.map((part) => sql`${sql.raw(`"${part.name}"`)} AS (${part.statement})`);
  return sql`WITH ${sql.join(named, sql`, `)} ${last}`;
}
