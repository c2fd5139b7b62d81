import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { IndexingMetadata } from '../../../core/json-columns.js';
import {
  isRetryable,
  NotFoundError,
  PermanentError,
  publicMessage,
  ValidationError,
} from '../../../errors.js';
import { isDatabaseError } from '../../../platform/database/errors.js';
import type { JobHandler, JobQueue } from '../../../platform/jobs/job-queue.js';
import type { OutboundFetch } from '../../../platform/outbound-fetch.js';
import { detectFileType, type TypeHint } from '../../../retrieval/loaders/file-types.js';
import type { TextIndexer } from '../../../retrieval/text-indexer.js';
import type { Context } from '../contexts/index.js';
import type { DocumentService } from '../documents/index.js';
import type { FileService } from '../files/index.js';
import { type ProcessContextSourcePayload, processContextSourceJob } from './processing-job.js';
import type { ContextSourceRepository, ContextSourceRow } from './repository.js';
import type { ReplaceSourceInput } from './schemas.js';

/** A URL path segment decoded; a malformed percent-encoding (`%E0%A4%A`) is kept as written. */
function decodedOrAsIs(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Why a source failed, as its `indexing_metadata.error` shows it: the reason a fetch, a file or a
 * budget gave, but never a database error's text (its statement and parameters stay in the log).
 */
function failureText(error: unknown): string {
  if (isDatabaseError(error)) return publicMessage(error);
  return error instanceof Error ? error.message : String(error);
}

/** Longer than any attempt may run (its time limit, and the lock of a node that died): surely stuck. */
const staleProcessingMs = processContextSourceJob.timeoutMs + 2 * 60_000;

/** A file or URL loaded, split and indexed into a Context's Documents, asynchronously. */
export type ContextSource = ContextSourceRow;

export interface ContextSourceService {
  /**
   * A source for `url` (an uploaded file's signed URL or an allowed web URL), processed
   * asynchronously; `name` defaults to the last part of the URL.
   */
  create(
    workspaceId: string,
    createdById: string,
    contextId: string,
    url: string,
    name?: string,
  ): Promise<ContextSource>;
  /** docs/api.md#how-the-parts-behave add_files: one source per uploaded file URL, processed asynchronously. */
  addFiles(
    workspaceId: string,
    createdById: string,
    contextId: string,
    urls: string[],
  ): Promise<{ created: string[] }>;
  /** Checks `add_files` URLs (a 400 naming `files.N`), so a caller can check before it creates anything. */
  checkFiles(workspaceId: string, urls: string[]): Promise<void>;
  /** The Context's sources; one left PROCESSING past any attempt's time is dispatched again first. */
  list(workspaceId: string, contextId: string): Promise<ContextSource[]>;
  /** The source of the Context, or 404 (recovered like `list`). */
  require(workspaceId: string, contextId: string, id: string): Promise<ContextSource>;
  /** docs/api.md#how-the-parts-behave PUT: a replacement of name, splitter and loader configuration; applied at the next processing. */
  replace(
    workspaceId: string,
    contextId: string,
    id: string,
    input: ReplaceSourceInput,
  ): Promise<ContextSource>;
  /** Deletes the source and its Documents. */
  remove(workspaceId: string, contextId: string, id: string): Promise<void>;
  /** Processes the source again (its file or URL read anew). */
  process(workspaceId: string, id: string, contextId: string): Promise<void>;
  /** Unknown or foreign GUIDs are skipped (docs/api.md#how-the-parts-behave). */
  processBatch(workspaceId: string, ids: string[]): Promise<void>;
  /** Indexes one source (the job `processContextSourceJob`), wired in `src/jobs.ts`. */
  readonly processingHandler: JobHandler<ProcessContextSourcePayload>;
}

export type ContextSourceServiceDependencies = {
  repository: ContextSourceRepository;
  /** Runs work in one transaction (a source's settling: the generation check and the removal). */
  inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
  requireContext: (workspaceId: string, contextId: string) => Promise<Context>;
  documents: DocumentService;
  files: FileService;
  fetch: OutboundFetch;
  /** Extraction and splitting, off the request thread. */
  indexer: TextIndexer;
  jobs: JobQueue;
  logger: Logger;
};

export function createContextSourceService(
  dependencies: ContextSourceServiceDependencies,
): ContextSourceService {
  const { repository, inTransaction, requireContext, documents, files, fetch, indexer, jobs, logger } =
    dependencies;

  async function require(workspaceId: string, contextId: string, id: string): Promise<ContextSourceRow> {
    await requireContext(workspaceId, contextId);
    const row = await repository.find(workspaceId, id);
    if (!row || row.contextId !== contextId) throw new NotFoundError('Context Source not found');
    return row;
  }

  /** A name for the source: the file name of the URL, or the uploaded file's GUID. */
  function nameOf(url: string): string {
    const parsed = new URL(url);
    const last = parsed.pathname.split('/').filter(Boolean).at(-1) ?? '';
    return decodedOrAsIs(last) || parsed.hostname;
  }

  /** Checks a URL when a source is created: one of our signed file URLs must be valid and ours. */
  async function checkUrl(workspaceId: string, url: string, field = 'url'): Promise<void> {
    const own = files.ownFileOf(url);
    if (!own) return;
    if (!own.valid) throw new ValidationError(field, 'the signed file URL is invalid or has expired');
    if (!(await files.read(workspaceId, own.id)))
      throw new ValidationError(field, 'no uploaded file has this URL');
  }

  async function checkFiles(workspaceId: string, urls: string[]): Promise<void> {
    for (const [index, url] of urls.entries()) await checkUrl(workspaceId, url, `files.${index}`);
  }

  /**
   * A source left PROCESSING longer than any attempt may run (its node died after the job was
   * already recorded, or its job is gone) is dispatched again when it is next read, so that no
   * source stays PROCESSING for ever.
   */
  async function recovered(row: ContextSourceRow): Promise<ContextSourceRow> {
    if (row.indexingStatus !== 'PROCESSING') return row;
    const cutoff = new Date(Date.now() - staleProcessingMs);
    if (row.updatedAt >= cutoff) return row;
    if (!(await repository.reclaimStale(row.workspaceId, row.id, cutoff))) return row;
    logger.warn({ sourceId: row.id }, 'context source was left processing; processing it again');
    await dispatch(row);
    return (await repository.find(row.workspaceId, row.id)) ?? row;
  }

  async function dispatch(row: ContextSourceRow): Promise<void> {
    await repository.update(row.workspaceId, row.id, { indexingStatus: 'PENDING' });
    try {
      await jobs.enqueue(processContextSourceJob, { workspaceId: row.workspaceId, sourceId: row.id });
    } catch (error) {
      await finish(row, 'FAILED', { documents: 0, chunks: 0, error: 'processing could not be queued' });
      throw error;
    }
  }

  async function finish(row: ContextSourceRow, status: 'INDEXED' | 'FAILED', metadata: IndexingMetadata) {
    await repository.update(row.workspaceId, row.id, {
      indexingStatus: status,
      indexedAt: status === 'INDEXED' ? new Date() : row.indexedAt,
      indexingMetadata: metadata,
    });
  }

  /** Stores a source for a checked URL of an existing Context and starts its processing. */
  async function insertAndDispatch(context: Context, createdById: string, url: string, name?: string) {
    const row = await repository.insert({
      id: randomUUID(),
      workspaceId: context.workspaceId,
      contextId: context.id,
      name: name ?? nameOf(url),
      url,
      // docs/api.md: a public create fixes the file loader with an empty loader configuration.
      loaderId: 'file',
      loaderConfig: [],
      splitterConfig: context.splitterConfig,
      createdById,
    });
    await dispatch(row);
    return row;
  }

  /** The bytes of a source: our own files straight from the blob store (docs/api.md#how-the-parts-behave), others fetched. */
  async function load(
    row: ContextSourceRow,
    signal: AbortSignal,
  ): Promise<{ bytes: Buffer; hint: TypeHint }> {
    const own = files.ownFileOf(row.url);
    if (own) {
      const file = await files.read(row.workspaceId, own.id);
      if (!file) throw new PermanentError('the uploaded file no longer exists');
      return { bytes: file.bytes, hint: { mimeType: file.mimeType } };
    }
    const fetched = await fetch(row.url, { signal });
    return { bytes: fetched.bytes, hint: { mimeType: fetched.contentType, filename: row.name } };
  }

  /**
   * Keeps one complete set of Documents when processings overlap: under the source's row lock, the
   * newest processing removes every other Document of the source, and an older one removes only
   * its own (a newer one is under way or done). A processing that begins later waits for the lock,
   * so it cannot add Documents that this removal misses.
   */
  async function settle(row: ContextSourceRow, generation: number, created: string[]): Promise<boolean> {
    return inTransaction(async () => {
      const newest = await repository.lockedGeneration(row.workspaceId, row.id);
      if (newest !== generation) {
        await documents.removeMany(row.workspaceId, row.contextId, created);
        return false;
      }
      await documents.removeOfSource(row.workspaceId, row.contextId, row.id, created);
      return true;
    });
  }

  async function process(
    row: ContextSourceRow,
    generation: number,
    signal: AbortSignal,
  ): Promise<IndexingMetadata | undefined> {
    const { bytes, hint } = await load(row, signal);
    const type = await detectFileType(bytes, hint);
    if (!type)
      throw new PermanentError(
        'the file type is not recognised (PDF, DOCX, HTML, Markdown and text can be indexed)',
      );
    const split = await indexer.extractAndSplit(bytes, type, row.splitterConfig);
    const chunks = split.chunks.map(({ content, page }) => ({
      content,
      metadata: { source: row.id, filename: row.name, ...(page !== undefined && { page }) },
    }));
    // Overtaken while reading and splitting: the newer processing makes the Documents.
    if ((await repository.find(row.workspaceId, row.id))?.generation !== generation) return undefined;
    // New Documents first, then the old ones go: a search never finds the source empty.
    const created = await documents.addFromSource(row.workspaceId, row.contextId, row.id, chunks);
    const newest = await settle(row, generation, created);
    return newest ? { documents: split.documents, chunks: chunks.length } : undefined;
  }

  return {
    processingHandler: {
      async process(payload, context) {
        const row = await repository.find(payload.workspaceId, payload.sourceId);
        if (!row) return; // Deleted meanwhile.
        const generation = await repository.beginProcessing(row.workspaceId, row.id);
        if (generation === undefined) return;
        try {
          const indexed = await process(row, generation, context.signal);
          // A newer processing overtook this one: it records the outcome.
          if (indexed) await finish(row, 'INDEXED', indexed);
        } catch (error) {
          const retryable = isRetryable(error);
          if (retryable && context.attempt < processContextSourceJob.attempts) throw error;
          const message = failureText(error);
          logger.info({ sourceId: row.id, err: error }, 'context source failed');
          // A newer processing under way records its own outcome.
          const current = await repository.find(row.workspaceId, row.id);
          if (current?.generation !== generation) return;
          await finish(row, 'FAILED', { documents: 0, chunks: 0, error: message });
        }
      },
      async onFinalFailure(payload, error) {
        const row = await repository.find(payload.workspaceId, payload.sourceId);
        const message = failureText(error);
        if (row) await finish(row, 'FAILED', { documents: 0, chunks: 0, error: message });
      },
    },

    async create(workspaceId, createdById, contextId, url, name) {
      const context = await requireContext(workspaceId, contextId);
      await checkUrl(workspaceId, url);
      return insertAndDispatch(context, createdById, url, name);
    },

    async addFiles(workspaceId, createdById, contextId, urls) {
      const context = await requireContext(workspaceId, contextId);
      // Every URL is checked before any source is made.
      await checkFiles(workspaceId, urls);
      const created: string[] = [];
      for (const url of urls) created.push((await insertAndDispatch(context, createdById, url)).id);
      return { created };
    },

    checkFiles,

    async list(workspaceId, contextId) {
      await requireContext(workspaceId, contextId);
      const rows = await repository.listForContext(workspaceId, contextId);
      return Promise.all(rows.map(recovered));
    },

    async require(workspaceId, contextId, id) {
      return recovered(await require(workspaceId, contextId, id));
    },

    async replace(workspaceId, contextId, id, input) {
      await require(workspaceId, contextId, id);
      if (input.url !== undefined) await checkUrl(workspaceId, input.url);
      const row = await repository.update(workspaceId, id, {
        name: input.name,
        splitterConfig: input.splitterConfig,
        loaderConfig: input.loaderConfig,
        ...(input.url === undefined ? {} : { url: input.url }),
      });
      if (!row) throw new NotFoundError('Context Source not found');
      return row;
    },

    async remove(workspaceId, contextId, id) {
      await require(workspaceId, contextId, id);
      await documents.removeOfSource(workspaceId, contextId, id);
      await repository.delete(workspaceId, id);
    },

    async process(workspaceId, id, contextId) {
      await dispatch(await require(workspaceId, contextId, id));
    },

    async processBatch(workspaceId, ids) {
      for (const row of await repository.findMany(workspaceId, [...new Set(ids)])) await dispatch(row);
    },
  };
}
