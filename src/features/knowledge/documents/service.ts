import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { SplitterConfig } from '../../../core/json-columns.js';
import { nextTurn } from '../../../core/next-turn.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { slicesOf } from '../../../core/slices.js';
import { NotFoundError } from '../../../errors.js';
import type { VacuumScheduler } from '../../../platform/database/vacuum-scheduler.js';
import type { JobHandler, JobQueue } from '../../../platform/jobs/job-queue.js';
import { createWriteCoalescer } from '../../../platform/write-coalescer.js';
import type { Embedder } from '../../../retrieval/embedders/embedder.js';
import type { TextIndexer } from '../../../retrieval/text-indexer.js';
import { type EmbedDocumentsPayload, embedDocumentsJob, embeddingBatchSize } from './embedding-job.js';
import {
  type DocumentRepository,
  type DocumentSummary,
  documentsPerTransaction,
  type NewDocument,
} from './repository.js';
import type { AddDocumentInput, UpdateDocumentInput } from './schemas.js';
import type { DocumentSearchRepository } from './search-repository.js';

/** Unpublished Documents this old belong to a write whose process died: no write takes this long. */
const abandonedAfterMs = 60 * 60_000;

/** A chunk of a Context's text with its metadata and embedding status (never its vector). */
export type Document = DocumentSummary;

export interface DocumentService {
  /** docs/api.md#how-the-parts-behave add: the content is split by the Context's splitter into one or more Documents; their GUIDs. */
  add(workspaceId: string, contextId: string, input: AddDocumentInput): Promise<string[]>;
  /**
   * The same add, with its split done first and its write run by `write` (an audited request's
   * transaction, which the split, seconds for a large text, must not hold open).
   */
  addWithin(
    workspaceId: string,
    contextId: string,
    input: AddDocumentInput,
    write: <Result>(work: () => Promise<Result>) => Promise<Result>,
  ): Promise<string[]>;
  /** Chunks a Context Source produced (already split), with their metadata; their GUIDs. */
  addFromSource(
    workspaceId: string,
    contextId: string,
    sourceId: string,
    chunks: Array<{ content: string; metadata: Record<string, unknown> }>,
  ): Promise<string[]>;
  /** The Context's Documents, newest first; `query` keeps those whose content contains it. */
  list(
    workspaceId: string,
    contextId: string,
    pagination: Pagination,
    query?: string,
  ): Promise<Page<Document>>;
  /** The Document of the Context, or 404. */
  require(workspaceId: string, contextId: string, id: string): Promise<Document>;
  /** docs/api.md#how-the-parts-behave PUT: new content (and metadata) is re-indexed and re-embedded. */
  update(workspaceId: string, contextId: string, id: string, input: UpdateDocumentInput): Promise<Document>;
  /** Queues re-embedding of unchanged content. */
  embed(workspaceId: string, contextId: string, id: string): Promise<void>;
  /** Every Document again, after the Context's embedding model changed. */
  reembedContext(workspaceId: string, contextId: string): Promise<void>;
  remove(workspaceId: string, contextId: string, id: string): Promise<void>;
  /** Every Document of the Context, or those with this legacy `filter`. */
  removeAll(workspaceId: string, contextId: string, filter?: string): Promise<void>;
  /** Removes the given Documents of the Context (a processing's, when a newer one overtook it). */
  removeMany(workspaceId: string, contextId: string, ids: string[]): Promise<number>;
  /** Removes a Context Source's Documents but those in `keep` (the ones its latest processing made). */
  removeOfSource(workspaceId: string, contextId: string, sourceId: string, keep?: string[]): Promise<number>;
  /** Embeds one batch of Documents (the job `embedDocumentsJob`), wired in `src/jobs.ts`. */
  readonly embeddingHandler: JobHandler<EmbedDocumentsPayload>;
}

/** What Documents need of their Context (the contexts feature owns it): its splitter and embedding model. */
export type DocumentsContext = { splitterConfig: SplitterConfig; embeddingModel: string | null };

export type DocumentServiceDependencies = {
  repository: DocumentRepository;
  search: Pick<DocumentSearchRepository, 'prepareVectors'>;
  /** The Context of the workspace, or a 404. */
  requireContext: (workspaceId: string, contextId: string) => Promise<DocumentsContext>;
  /** The embedder of a Context's embedding model. */
  embedders: { forContext(workspaceId: string, embeddingModel: string | null): Promise<Embedder> };
  jobs: JobQueue;
  vacuums: VacuumScheduler;
  /** Splits a long Document's text off the request thread. */
  indexer: Pick<TextIndexer, 'split'>;
  logger: Logger;
};

export function createDocumentService(dependencies: DocumentServiceDependencies): DocumentService {
  const { repository, search, requireContext, embedders, jobs, vacuums, indexer, logger } = dependencies;

  async function require(workspaceId: string, contextId: string, id: string): Promise<DocumentSummary> {
    await requireContext(workspaceId, contextId);
    const row = await repository.find(workspaceId, contextId, id);
    if (!row) throw new NotFoundError('Document not found');
    return row;
  }

  /** One job per embedding batch, queued together (embedding-job.ts says why they are small). */
  async function queueEmbedding(workspaceId: string, contextId: string, documentIds: string[]) {
    const payloads = slicesOf(documentIds, embeddingBatchSize).map(
      (slice): EmbedDocumentsPayload => ({ workspaceId, contextId, documentIds: slice }),
    );
    await jobs.enqueueMany(embedDocumentsJob, payloads);
  }

  /** A write runs here; an audited one passes its recorder, so the change and its record are one. */
  type Within = <Result>(work: () => Promise<Result>) => Promise<Result>;
  const directly: Within = (work) => work();

  /**
   * Stores Documents and queues their embedding; if anything fails, nothing stays stored. A write of
   * more than one slice is staged unpublished outside `within` (a transaction a slice, so no tenant
   * waits for the whole write), and only its publication and the embedding jobs run within it.
   */
  async function store(
    workspaceId: string,
    contextId: string,
    sourceId: string | null,
    rows: NewDocument[],
    within: Within = directly,
  ): Promise<string[]> {
    const ids = rows.map((row) => row.id);
    const whole = rows.length <= documentsPerTransaction;
    if (!whole) await removeAbandoned(workspaceId, contextId);
    const writeId = whole ? null : await repository.beginWrite(workspaceId, contextId);
    try {
      if (writeId)
        await repository.stage(workspaceId, contextId, sourceId, rows, writeId, vacuums.noteStaged);
      await within(async () => {
        if (writeId) await repository.publish(writeId);
        else await repository.stage(workspaceId, contextId, sourceId, rows, null);
        await queueEmbedding(workspaceId, contextId, ids);
      });
    } catch (error) {
      await (writeId
        ? repository.discard(workspaceId, contextId, writeId)
        : repository.delete(workspaceId, contextId, ids)
      ).catch((cleanup: unknown) =>
        logger.warn({ contextId, err: cleanup }, 'a failed write left unpublished Documents'),
      );
      throw error;
    }
    return ids;
  }

  /** The staged Documents of writes whose process died before they published. */
  async function removeAbandoned(workspaceId: string, contextId: string): Promise<void> {
    const before = new Date(Date.now() - abandonedAfterMs);
    for (const writeId of await repository.abandonedWrites(contextId, before))
      await repository.discard(workspaceId, contextId, writeId);
  }

  async function embedPending(payload: EmbedDocumentsPayload, signal: AbortSignal) {
    const context = await requireContext(payload.workspaceId, payload.contextId).catch(() => undefined);
    if (!context) return; // Deleted meanwhile: nothing to embed.
    const embedder = await embedders.forContext(payload.workspaceId, context.embeddingModel);
    const pending = await repository.pendingEmbedding(payload.contextId, payload.documentIds);
    for (const batch of slicesOf(pending, embeddingBatchSize)) {
      signal.throwIfAborted();
      // Blank text has no meaning to embed (and gives a zero vector); it stays lexical-only.
      const meaningful = batch.filter((row) => row.content.trim().length > 0);
      const embeddings = await embedder.embed(
        meaningful.map((row) => row.content),
        'document',
      );
      const dimensions = embeddings[0]?.length;
      if (dimensions) await search.prepareVectors(dimensions);
      const vectorOf = new Map(meaningful.map((row, index) => [row.id, embeddings[index]]));
      await repository.storeEmbeddings(
        batch.map((row) => ({ id: row.id, updatedAt: row.updatedAt, vector: vectorOf.get(row.id) })),
      );
      vacuums.noteWrites(batch.length);
    }
  }

  /** A text split by the Context's splitter (off the request thread): its Documents to store. */
  async function rowsOf(input: AddDocumentInput, splitter: DocumentsContext['splitterConfig']) {
    const content = input.content ?? input.text ?? '';
    const chunks = await indexer.split(content, splitter);
    return (chunks.length > 0 ? chunks : [content]).map(
      (piece): NewDocument => ({
        id: randomUUID(),
        content: piece,
        filter: input.filter ?? null,
        metadata: input.metadata ?? {},
      }),
    );
  }

  /**
   * Adds to one Context take turns anyway (they lock its row). Adds that arrive while one is being
   * written wait in memory, before any query, and then go together: one Context read, one
   * transaction and one embedding job for all of them (group commit; docs/performance.md).
   */
  type AddRequest = { workspaceId: string; contextId: string; input: AddDocumentInput };
  const adds = createWriteCoalescer<AddRequest, string[]>({
    maximumItems: 64,
    async write(_key, requests) {
      const { workspaceId, contextId } = requests[0]!;
      const context = await requireContext(workspaceId, contextId);
      const rowsOfEach: NewDocument[][] = [];
      for (const { input } of requests) {
        // One text a turn of the event loop, so a group of many adds does not hold the other
        // requests up for all of them at once.
        if (rowsOfEach.length > 0) await nextTurn();
        rowsOfEach.push(await rowsOf(input, context.splitterConfig));
      }
      await store(workspaceId, contextId, null, rowsOfEach.flat());
      return rowsOfEach.map((rows) => rows.map((row) => row.id));
    },
  });

  return {
    embeddingHandler: {
      async process(payload, context) {
        await embedPending(payload, context.signal);
        vacuums.settle();
      },
      async onFinalFailure(payload, error) {
        logger.warn({ contextId: payload.contextId, error: error.message }, 'embedding failed');
        await repository.markFailed(payload.contextId, payload.documentIds);
      },
    },

    add(workspaceId, contextId, input) {
      return adds.write(`${workspaceId}:${contextId}`, { workspaceId, contextId, input });
    },

    async addWithin(workspaceId, contextId, input, write) {
      const context = await requireContext(workspaceId, contextId);
      const rows = await rowsOf(input, context.splitterConfig);
      return store(workspaceId, contextId, null, rows, write);
    },

    async addFromSource(workspaceId, contextId, sourceId, chunks) {
      return store(
        workspaceId,
        contextId,
        sourceId,
        chunks.map((chunk) => ({
          id: randomUUID(),
          content: chunk.content,
          filter: null,
          metadata: chunk.metadata,
        })),
      );
    },

    async list(workspaceId, contextId, pagination, query) {
      await requireContext(workspaceId, contextId);
      return repository.list(workspaceId, contextId, pagination.skip, pagination.limit, query);
    },

    require,

    async update(workspaceId, contextId, id, input) {
      await require(workspaceId, contextId, id);
      const row = await repository.replaceContent(workspaceId, contextId, id, input);
      if (!row) throw new NotFoundError('Document not found');
      await queueEmbedding(workspaceId, contextId, [id]);
      return row;
    },

    async embed(workspaceId, contextId, id) {
      await require(workspaceId, contextId, id);
      await repository.markPending(workspaceId, contextId, [id]);
      await queueEmbedding(workspaceId, contextId, [id]);
    },

    async reembedContext(workspaceId, contextId) {
      const ids = await repository.markPending(workspaceId, contextId);
      await queueEmbedding(workspaceId, contextId, ids);
    },

    async remove(workspaceId, contextId, id) {
      await require(workspaceId, contextId, id);
      await repository.delete(workspaceId, contextId, [id]);
    },

    async removeAll(workspaceId, contextId, filter) {
      await requireContext(workspaceId, contextId);
      await repository.deleteAll(workspaceId, contextId, filter);
    },

    async removeMany(workspaceId, contextId, ids) {
      return ids.length === 0 ? 0 : repository.delete(workspaceId, contextId, ids);
    },

    async removeOfSource(workspaceId, contextId, sourceId, keep) {
      return repository.deleteOfSource(workspaceId, contextId, sourceId, keep);
    },
  };
}
