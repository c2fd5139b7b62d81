import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { nextTurn } from '../../../core/next-turn.js';
import { slicesOf } from '../../../core/slices.js';
import { asBulkWork } from '../../../platform/database/bulk-work.js';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { containingPattern, newestFirst, pageWithTotal, totalOf } from '../../../platform/database/pages.js';
import {
  indexDocumentsStatement,
  termCountOf,
  unindexDocumentsStatement,
} from '../../../retrieval/lexical-index.js';
import { publishedDocument } from '../../../retrieval/published-documents.js';
import { realArray } from '../../../retrieval/vector-store.js';
import { contexts } from '../contexts/tables.js';
import { documents, documentWrites } from './tables.js';

export type DocumentRow = typeof documents.$inferSelect;

/** Writes the postings of Documents just written (in the same transaction as their rows). */
async function indexDocuments(database: Database, contextId: string, ids: string[]): Promise<void> {
  if (ids.length > 0) await database.execute(indexDocumentsStatement(contextId, ids));
}

/** Removes the postings of Documents about to change or go (in the same transaction). */
async function unindexDocuments(database: Database, contextId: string, ids: string[]): Promise<void> {
  if (ids.length > 0) await database.execute(unindexDocumentsStatement(contextId, ids));
}
export type NewDocument = {
  id: string;
  content: string;
  filter: string | null;
  metadata: Record<string, unknown>;
};

const publicColumns = {
  id: documents.id,
  contextId: documents.contextId,
  sourceId: documents.sourceId,
  content: documents.content,
  filter: documents.filter,
  metadata: documents.metadata,
  embeddingStatus: documents.embeddingStatus,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
};

export type DocumentSummary = Pick<DocumentRow, keyof typeof publicColumns>;

/**
 * Documents one transaction writes: a write of more is staged unpublished, a transaction a slice.
 * 16 (~16 KB of text) keep a slice's transaction, which every other statement on the embedded
 * database waits for, at a few tens of milliseconds (bench/tenant-database.ts).
 */
export const documentsPerTransaction = 16;

/**
 * Embeddings one statement stores: each vector is an insert into the HNSW graph (~3 ms on the
 * embedded database once it holds thousands), so 16 took 40–70 ms; 8 stay under ~35 ms.
 */
const vectorsPerStatement = 8;

/**
 * Documents and their BM25 postings. Every write keeps the Context's BM25 counts (N, total length)
 * in the same transaction, so lexical scores never see half a write.
 */
export function createDocumentRepository(database: Database) {
  const owned = (workspaceId: string, contextId: string) =>
    and(eq(documents.workspaceId, workspaceId), eq(documents.contextId, contextId));

  async function adjustCounts(
    transaction: Database,
    contextId: string,
    documentDelta: number,
    termDelta: number,
  ) {
    if (documentDelta === 0 && termDelta === 0) return;
    await transaction
      .update(contexts)
      .set({
        documentCount: sql`${contexts.documentCount} + ${documentDelta}`,
        termTotal: sql`${contexts.termTotal} + ${termDelta}`,
      })
      .where(eq(contexts.id, contextId));
  }

  /**
   * A write to one Context's Documents. The Context row is locked first, so writes to a Context
   * take turns (its BM25 counts and term frequencies are shared) and never deadlock each other.
   */
  function writeToContext<Result>(contextId: string, work: (transaction: Database) => Promise<Result>) {
    return database.transaction(async (transaction) => {
      await transaction
        .select({ id: contexts.id })
        .from(contexts)
        .where(eq(contexts.id, contextId))
        .for('update');
      return work(transaction as unknown as Database);
    });
  }

  async function deleteWhere(
    workspaceId: string,
    contextId: string,
    condition: ReturnType<typeof and>,
  ): Promise<number> {
    return writeToContext(contextId, async (transaction) => {
      const doomed = await transaction
        .select({ id: documents.id })
        .from(documents)
        .where(and(owned(workspaceId, contextId), condition))
        .for('update');
      const ids = doomed.map((row) => row.id);
      if (ids.length === 0) return 0;
      await unindexDocuments(transaction, contextId, ids);
      const deleted = await transaction
        .delete(documents)
        .where(inArray(documents.id, ids))
        .returning({ termCount: documents.termCount });
      const terms = deleted.reduce((total, row) => total + row.termCount, 0);
      await adjustCounts(transaction, contextId, -deleted.length, -terms);
      return deleted.length;
    });
  }

  return {
    /** Opens a large write: its staged chunks stay invisible until `publish` (schema.ts). */
    async beginWrite(workspaceId: string, contextId: string): Promise<string> {
      const id = randomUUID();
      await database.insert(documentWrites).values({ id, workspaceId, contextId });
      return id;
    },

    /**
     * Writes Documents (lexically searchable once published, embedding pending), one slice (and its
     * postings and BM25 counts) a transaction: on the embedded database a transaction holds every
     * other tenant's statements, and one transaction for a 4 MB Document (4,400 chunks) held them
     * for seconds. Staged by a write (`writeId`), no read sees them until it publishes.
     */
    async stage(
      workspaceId: string,
      contextId: string,
      sourceId: string | null,
      rows: NewDocument[],
      writeId: string | null,
      /** Told of each slice written. */
      onSlice: (rows: number) => void = () => undefined,
    ): Promise<void> {
      for (const slice of slicesOf(rows, documentsPerTransaction)) {
        await nextTurn();
        // Bulk: another tenant's interactive statements go first on the embedded database.
        await asBulkWork(() =>
          writeToContext(contextId, async (transaction) => {
            const inserted = rowsOf<{ term_count: number }>(
              await transaction.execute(sql`
              INSERT INTO documents (id, workspace_id, context_id, source_id, content, filter, metadata, term_count, write_id)
              SELECT r.id, ${workspaceId}, ${contextId}, ${sourceId}, r.content, r.filter, r.metadata,
                     ${termCountOf(sql`r.content`)}, ${writeId}::uuid
              FROM json_to_recordset(${JSON.stringify(slice)}::json)
                AS r(id uuid, content text, filter text, metadata jsonb)
              RETURNING term_count`),
            );
            const terms = inserted.reduce((total, row) => total + Number(row.term_count), 0);
            await adjustCounts(transaction, contextId, slice.length, terms);
            await indexDocuments(
              transaction,
              contextId,
              slice.map((row) => row.id),
            );
          }),
        );
        onSlice(slice.length);
      }
    },

    /**
     * Makes a write's staged Documents visible, all at once: one row deleted, however many chunks
     * (updating each chunk held the embedded database for ~100 ms on a 4 MB Document).
     */
    async publish(writeId: string): Promise<void> {
      await database.delete(documentWrites).where(eq(documentWrites.id, writeId));
    },

    /**
     * Removes a write that will never publish, a slice a transaction like its staging (no reader
     * sees its chunks, so no reader sees half of them go), then its row.
     */
    async discard(workspaceId: string, contextId: string, writeId: string): Promise<void> {
      for (;;) {
        const slice = await database
          .select({ id: documents.id })
          .from(documents)
          .where(eq(documents.writeId, writeId))
          .limit(documentsPerTransaction);
        if (slice.length === 0) break;
        await nextTurn();
        const ids = slice.map((row) => row.id);
        await asBulkWork(() => deleteWhere(workspaceId, contextId, inArray(documents.id, ids)));
      }
      await database.delete(documentWrites).where(eq(documentWrites.id, writeId));
    },

    /** A Context's writes begun before `before` and never published: their process died. */
    async abandonedWrites(contextId: string, before: Date): Promise<string[]> {
      const rows = await database
        .select({ id: documentWrites.id })
        .from(documentWrites)
        .where(and(eq(documentWrites.contextId, contextId), lt(documentWrites.createdAt, before)));
      return rows.map((row) => row.id);
    },

    async find(workspaceId: string, contextId: string, id: string): Promise<DocumentSummary | undefined> {
      const [row] = await database
        .select(publicColumns)
        .from(documents)
        .where(and(owned(workspaceId, contextId), eq(documents.id, id), publishedDocument('documents')));
      return row;
    },

    async list(workspaceId: string, contextId: string, skip: number, limit: number, query?: string) {
      const scope = and(
        owned(workspaceId, contextId),
        publishedDocument('documents'),
        query ? sql`${documents.content} ILIKE ${containingPattern(query)}` : undefined,
      );
      return pageWithTotal(
        database
          .select(publicColumns)
          .from(documents)
          .where(scope)
          .orderBy(...newestFirst(documents))
          .offset(skip)
          .limit(limit),
        totalOf(database, documents, scope),
      );
    },

    /** New content: postings rebuilt, embedding dropped until the embedding job runs again. */
    async replaceContent(
      workspaceId: string,
      contextId: string,
      id: string,
      changes: { content: string; metadata?: Record<string, unknown> },
    ): Promise<DocumentSummary | undefined> {
      return writeToContext(contextId, async (transaction) => {
        const [before] = await transaction
          .select({ termCount: documents.termCount })
          .from(documents)
          .where(and(owned(workspaceId, contextId), eq(documents.id, id)))
          .for('update');
        if (!before) return undefined;
        await unindexDocuments(transaction, contextId, [id]);
        const [row] = await transaction
          .update(documents)
          .set({
            content: changes.content,
            ...(changes.metadata === undefined ? {} : { metadata: changes.metadata }),
            termCount: termCountOf(sql`${changes.content}::text`),
            embedding: null,
            embeddingDimensions: null,
            embeddingStatus: 'pending',
            updatedAt: new Date(),
          })
          .where(eq(documents.id, id))
          .returning({ ...publicColumns, termCount: documents.termCount });
        await adjustCounts(transaction, contextId, 0, row!.termCount - before.termCount);
        await indexDocuments(transaction, contextId, [id]);
        return row;
      });
    },

    /** Marks Documents for the embedding job; all of the Context's when `ids` is absent. */
    async markPending(workspaceId: string, contextId: string, ids?: string[]): Promise<string[]> {
      const rows = await database
        .update(documents)
        .set({
          embedding: null,
          embeddingDimensions: null,
          embeddingStatus: 'pending',
          updatedAt: new Date(),
        })
        .where(and(owned(workspaceId, contextId), ids ? inArray(documents.id, ids) : undefined))
        .returning({ id: documents.id });
      return rows.map((row) => row.id);
    },

    async delete(workspaceId: string, contextId: string, ids: string[]): Promise<number> {
      return deleteWhere(workspaceId, contextId, inArray(documents.id, ids));
    },

    /**
     * All of the Context's published Documents, or those whose legacy `filter` equals the given one
     * (a write still staging its chunks publishes them whole afterwards, never half of them).
     */
    async deleteAll(workspaceId: string, contextId: string, filter?: string): Promise<number> {
      return deleteWhere(
        workspaceId,
        contextId,
        and(publishedDocument('documents'), filter === undefined ? undefined : eq(documents.filter, filter)),
      );
    },

    /** A Context Source's published Documents, except those just made by its latest processing. */
    async deleteOfSource(
      workspaceId: string,
      contextId: string,
      sourceId: string,
      keep: string[] = [],
    ): Promise<number> {
      return deleteWhere(
        workspaceId,
        contextId,
        and(
          eq(documents.sourceId, sourceId),
          publishedDocument('documents'),
          keep.length > 0 ? notInArray(documents.id, keep) : undefined,
        ),
      );
    },

    /** Pending Documents among `ids`, with what the embedder needs. */
    async pendingEmbedding(contextId: string, ids: string[]) {
      return database
        .select({ id: documents.id, content: documents.content, updatedAt: documents.updatedAt })
        .from(documents)
        .where(
          and(
            eq(documents.contextId, contextId),
            inArray(documents.id, ids),
            eq(documents.embeddingStatus, 'pending'),
          ),
        );
    },

    /** Stores vectors unless the Document changed since it was read (a newer job embeds that content). */
    async storeEmbeddings(
      rows: Array<{ id: string; updatedAt: Date; vector: Float32Array | undefined }>,
    ): Promise<void> {
      // A statement a slice: 32 vectors (and their index entries) in one statement held the embedded
      // database for ~70 ms, which every other tenant's statement waited for.
      for (const slice of slicesOf(rows, vectorsPerStatement)) {
        const values = slice.map(
          (row) =>
            sql`(${row.id}::uuid, ${row.updatedAt.toISOString()}::timestamptz, ${row.vector ? realArray(row.vector) : null}::real[])`,
        );
        await database.execute(sql`
          UPDATE documents AS d
          SET embedding = v.embedding, embedding_dimensions = array_length(v.embedding, 1),
              embedding_status = 'embedded',
              -- Published by now (embedding is queued with the publication): no more probes for it.
              write_id = CASE WHEN ${publishedDocument('d')} THEN NULL ELSE d.write_id END
          FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, read_at, embedding)
          WHERE d.id = v.id AND date_trunc('milliseconds', d.updated_at) = v.read_at AND d.embedding_status = 'pending'`);
      }
    },

    async markFailed(contextId: string, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await database
        .update(documents)
        .set({ embeddingStatus: 'failed' })
        .where(
          and(
            eq(documents.contextId, contextId),
            inArray(documents.id, ids),
            eq(documents.embeddingStatus, 'pending'),
          ),
        );
    },
  };
}

export type DocumentRepository = ReturnType<typeof createDocumentRepository>;
