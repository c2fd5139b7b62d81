import { count, desc, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './connection.js';

/** How many rows of `table` are in `scope` (the `total_count` of a list envelope). */
export async function totalOf(database: Database, table: PgTable, scope?: SQL): Promise<number> {
  const [row] = await database.select({ value: count() }).from(table).where(scope);
  return row?.value ?? 0;
}

/**
 * A page and its total, asked together: on the embedded database both wait for one turn of its
 * thread instead of two, so a request behind another tenant's bulk statements waits for one of them
 * at most, not one before each of its statements.
 */
export async function pageWithTotal<Row>(
  rows: PromiseLike<Row[]>,
  total: Promise<number>,
): Promise<{ rows: Row[]; total: number }> {
  const [page, count] = await Promise.all([rows, total]);
  return { rows: page, total: count };
}

/**
 * A page of a table's rows in `scope`, in `order`, with the total in scope: the list of most
 * repositories, its two statements asked together (`pageWithTotal`).
 */
export function tablePage<Table extends PgTable>(
  database: Database,
  table: Table,
  scope: SQL | undefined,
  order: readonly SQL[],
  skip: number,
  limit: number,
): Promise<{ rows: Table['$inferSelect'][]; total: number }> {
  const rows = database
    .select()
    .from(table as PgTable)
    .where(scope)
    .orderBy(...order)
    .offset(skip)
    .limit(limit);
  // drizzle types a select from a generic table loosely: its rows are the table's own.
  return pageWithTotal(
    rows as unknown as PromiseLike<Table['$inferSelect'][]>,
    totalOf(database, table, scope),
  );
}

/** The order of every list: newest first, ties broken by id so pages never overlap. */
export function newestFirst(table: { createdAt: PgColumn; id: PgColumn }) {
  return [desc(table.createdAt), desc(table.id)] as const;
}

/** A LIKE/ILIKE pattern matching `text` literally anywhere (its `%`, `_` and backslashes escaped). */
export function containingPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** Rows filed in `folder` or any folder below it (`a/b` takes `a/b` and `a/b/c`, not `a/bc`). */
export function inFolder(column: PgColumn, folder: string): SQL {
  return sql`(${column} = ${folder} OR starts_with(${column}, ${`${folder}/`}))`;
}
