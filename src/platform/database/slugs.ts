import { and, eq, like, or } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './connection.js';

/** "Summarise Support Tickets!" → "summarise-support-tickets" (`fallback` when nothing is left). */
export function slugFromName(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** A table whose rows have a slug unique within their workspace. */
export type SluggedTable = { table: PgTable; slug: PgColumn; workspaceId: PgColumn };

/** The slug from `name`, or with the first free suffix (`-2`, `-3`, …) when the workspace has it. */
export async function freeSlug(
  database: Database,
  target: SluggedTable,
  workspaceId: string,
  name: string,
  fallback: string,
): Promise<string> {
  const base = slugFromName(name, fallback);
  const escaped = base.replace(/[\\%_]/g, (character) => `\\${character}`);
  const rows = await database
    .select({ slug: target.slug })
    .from(target.table)
    .where(
      and(eq(target.workspaceId, workspaceId), or(eq(target.slug, base), like(target.slug, `${escaped}-%`))),
    );
  const taken = new Set(rows.map((row) => row.slug as string));
  if (!taken.has(base)) return base;
  let suffix = 2;
  while (taken.has(`${base}-${suffix}`)) suffix += 1;
  return `${base}-${suffix}`;
}
