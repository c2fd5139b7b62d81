import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Page, Pagination } from '../../../core/pagination.js';
import { ConflictError, NotFoundError, publicMessage, ValidationError } from '../../../errors.js';
import type { JobQueue } from '../../../platform/jobs/job-queue.js';
import { createReadCache } from '../../../platform/read-cache.js';
import type { ResolvedAction } from '../../authoring/actions/index.js';
import { type ComparedItem, type Comparison, compare, comparedItems } from './comparison.js';
import type { ComparisonRepository } from './comparison-repository.js';
import { evaluationItemJob, itemJobKey } from './item-job.js';
import { type Report, reportOf } from './report.js';
import {
  type EvaluationRepository,
  type EvaluationRow,
  type EvaluationStatus,
  endedStatuses,
  type Progress,
  type ResultWithItem,
} from './repository.js';
import type { ResultsQuery, StartEvaluation, StartMatrix } from './schemas.js';
import type { PinnedEvaluator } from './tables.js';

/** A comparison as the API shows it: the two runs, the evaluators' figures and the items shown. */
export type ComparisonView = Omit<Comparison, 'ranked'> & {
  base: EvaluationRow;
  candidate: EvaluationRow;
  items: ComparedItem[];
};

/** An evaluation as the API shows it: its row, where it stands, and its summary so far. */
export type EvaluationView = { row: EvaluationRow; progress: Progress; report: Report };

/** What an evaluation needs from the features it names. */
export type EvaluationSources = {
  resolveAction(
    workspaceId: string,
    guidOrSlug: string,
    selection: { version?: number; environment?: string },
  ): Promise<ResolvedAction>;
  /** The dataset's name and newest version (a 404 for another workspace's). */
  dataset(workspaceId: string, id: string): Promise<{ name: string; version: number }>;
  /** The evaluator as it is now (a 404 for another workspace's): the evaluation pins it. */
  evaluator(workspaceId: string, id: string): Promise<PinnedEvaluator>;
};

export interface EvaluationService {
  start(
    workspaceId: string,
    creatorId: string,
    request: StartEvaluation,
    model?: string,
  ): Promise<EvaluationView>;
  /** One evaluation per version (or per model) of the Action, on the same dataset and evaluators. */
  startMatrix(workspaceId: string, creatorId: string, request: StartMatrix): Promise<EvaluationView[]>;
  get(workspaceId: string, id: string): Promise<EvaluationView>;
  list(
    workspaceId: string,
    pagination: Pagination,
    filter: { actionId?: string },
  ): Promise<Page<EvaluationView>>;
  results(workspaceId: string, id: string, query: ResultsQuery): Promise<Page<ResultWithItem>>;
  cancel(workspaceId: string, id: string): Promise<EvaluationView>;
  compare(workspaceId: string, baseId: string, candidateId: string, limit: number): Promise<ComparisonView>;
}

export function createEvaluationService(dependencies: {
  repository: EvaluationRepository;
  comparisons: Pick<ComparisonRepository, 'paired' | 'pairedOutputs'>;
  sources: EvaluationSources;
  jobs: Pick<JobQueue, 'enqueue'>;
  /** Runs work in one transaction (joining the request's, when it has one). */
  inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
  /** Runs work once the current transaction has committed: a worker must find what its job names. */
  afterCommit: (work: () => Promise<unknown>) => Promise<void>;
  logger: Logger;
}): EvaluationService {
  const { repository, comparisons, sources, jobs, inTransaction, afterCommit, logger } = dependencies;

  const ended = (row: EvaluationRow) => endedStatuses.includes(row.status as EvaluationStatus);
  /**
   * A running evaluation's summary, computed from its finished items at most once a second: the
   * console asks every second, and a 10,000-item run's bootstrap takes tens of milliseconds.
   */
  const liveReports = createReadCache<Report>({ ttlMs: 1_000, maxEntries: 1_000 });

  async function view(row: EvaluationRow, counted?: Omit<Progress, 'total'>): Promise<EvaluationView> {
    const progress = {
      total: row.total,
      ...(counted ?? (await repository.progress([row.id])).get(row.id) ?? { done: 0, failed: 0 }),
    };
    // An ended run's summary was computed once when it ended; a running one's covers the items so far.
    const report =
      ended(row) && row.report
        ? (row.report as Report)
        : await liveReports.get(row.id, async () =>
            reportOf(row.evaluators, await repository.scored(row.id)),
          );
    return { row, progress, report };
  }

  async function require(workspaceId: string, id: string): Promise<EvaluationRow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Evaluation not found');
    return row;
  }

  /** Queues the first item of each chain; a queue that refuses them fails the run at once. */
  async function queueChains(row: EvaluationRow): Promise<void> {
    const chains = Math.min(row.concurrency, row.total);
    try {
      for (let position = 0; position < chains; position++)
        await jobs.enqueue(
          evaluationItemJob,
          { workspaceId: row.workspaceId, evaluationId: row.id, position, stride: chains },
          { key: itemJobKey(row.id, position) },
        );
    } catch (error) {
      logger.error({ err: error, evaluation: row.id }, 'could not queue an evaluation');
      await repository.end(row.id, 'FAILED', {
        error: `The job queue refused the run: ${publicMessage(error)}`,
        report: reportOf(row.evaluators, []),
      });
      throw error;
    }
  }

  async function start(workspaceId: string, creatorId: string, request: StartEvaluation, model?: string) {
    const resolved = await sources.resolveAction(workspaceId, request.action, {
      version: request.version,
      environment: request.environment,
    });
    const dataset = await sources.dataset(workspaceId, request.dataset);
    const datasetVersion = request.dataset_version ?? dataset.version;
    if (datasetVersion > dataset.version)
      throw new ValidationError('dataset_version', `the dataset's newest version is ${dataset.version}`);
    const evaluators = await Promise.all(request.evaluators.map((id) => sources.evaluator(workspaceId, id)));
    const version = resolved.version.version;
    const row = await inTransaction(async () => {
      const inserted = await repository.insert({
        id: randomUUID(),
        workspaceId,
        name:
          request.name ??
          `${resolved.action.name} v${version}${model ? ` (${model})` : ''} on ${dataset.name} v${datasetVersion}`,
        actionId: resolved.action.id,
        version,
        model: model ?? null,
        environment: resolved.environment,
        datasetId: request.dataset,
        datasetVersion,
        evaluators,
        concurrency: request.concurrency,
        status: 'PENDING',
        total: 0,
        createdById: creatorId,
      });
      // Thrown inside the transaction: nothing of the evaluation stays.
      if (inserted.total === 0)
        throw new ValidationError('dataset', `version ${datasetVersion} has no items`);
      return inserted;
    });
    await afterCommit(() => queueChains(row));
    return view(row, { done: 0, failed: 0 });
  }

  return {
    start,

    async startMatrix(workspaceId, creatorId, request) {
      const { versions, models, action, ...shared } = request;
      if ((versions === undefined) === (models === undefined))
        throw new ValidationError('versions', 'give the versions or the models to compare, one of the two');
      const runs = versions
        ? versions.map((version) => ({ version, model: undefined }))
        : models!.map((model) => ({ version: undefined, model }));
      const started: EvaluationView[] = [];
      for (const run of runs)
        started.push(
          await start(workspaceId, creatorId, { ...shared, action, version: run.version }, run.model),
        );
      return started;
    },

    async get(workspaceId, id) {
      return view(await require(workspaceId, id));
    },

    async list(workspaceId, { skip, limit }, filter) {
      const { rows, total } = await repository.list(workspaceId, skip, limit, filter);
      const counted = await repository.progress(rows.map((row) => row.id));
      const views = await Promise.all(
        rows.map((row) => view(row, counted.get(row.id) ?? { done: 0, failed: 0 })),
      );
      return { rows: views, total };
    },

    async results(workspaceId, id, query) {
      const row = await require(workspaceId, id);
      if (query.score_below !== undefined && !query.evaluator)
        throw new ValidationError('evaluator', 'score_below needs the evaluator whose score it compares');
      return repository.results(
        row.id,
        { status: query.status, evaluator: query.evaluator, scoreBelow: query.score_below },
        query.skip,
        query.limit,
      );
    },

    async cancel(workspaceId, id) {
      const row = await require(workspaceId, id);
      const report = reportOf(row.evaluators, await repository.scored(row.id));
      if (!(await repository.end(row.id, 'CANCELLED', { report })))
        throw new ConflictError(`The evaluation has ended (${(await require(workspaceId, id)).status})`);
      return view(await require(workspaceId, id));
    },

    async compare(workspaceId, baseId, candidateId, limit) {
      const [base, candidate] = await Promise.all([
        require(workspaceId, baseId),
        require(workspaceId, candidateId),
      ]);
      if (base.datasetId !== candidate.datasetId || base.datasetVersion !== candidate.datasetVersion)
        throw new ValidationError(
          'candidate',
          `ran on another dataset version than base (dataset ${candidate.datasetId} v${candidate.datasetVersion}, base ${base.datasetId} v${base.datasetVersion})`,
        );
      const pairs = await comparisons.paired(base.id, candidate.id);
      const { ranked, ...figures } = compare(base, candidate, pairs, { limit, intervals: true });
      // Inputs and outputs are read for the items shown only: a 10,000-item run's are large.
      const outputs = await comparisons.pairedOutputs(
        base.id,
        candidate.id,
        ranked.map((each) => each.itemId),
      );
      return { base, candidate, ...figures, items: comparedItems(ranked, outputs) };
    },
  };
}
