import { sql } from 'drizzle-orm';

/**
 * Whether the Document row called `alias` in the surrounding statement is published: it was not
 * staged by a large write (documents.write_id), or that write has published (its `document_writes`
 * row is gone). A write holds ~20 rows at most at a time, so the probe is one index lookup, and
 * only for chunks whose embedding has not been stored yet (storing it clears `write_id`).
 */
export function publishedDocument(alias: string) {
  return sql.raw(
    `(${alias}.write_id IS NULL OR NOT EXISTS (SELECT 1 FROM document_writes w WHERE w.id = ${alias}.write_id))`,
  );
}
