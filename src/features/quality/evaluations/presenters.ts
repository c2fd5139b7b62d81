import type { ResultWithItem } from './repository.js';
import type { ComparisonResponse, EvaluationResponse, EvaluationResultResponse } from './responses.js';
import type { ComparisonView, EvaluationView } from './service.js';

export function presentEvaluation({ row, progress, report }: EvaluationView): EvaluationResponse {
  return {
    guid: row.id,
    name: row.name,
    status: row.status as EvaluationResponse['status'],
    error: row.error,
    action: row.actionId,
    version: row.version,
    environment: row.environment,
    model: row.model,
    dataset: row.datasetId,
    dataset_version: row.datasetVersion,
    evaluators: row.evaluators.map((evaluator) => evaluator.id),
    concurrency: row.concurrency,
    progress,
    summary: report.summary,
    cost: report.cost,
    latency_ms: report.latency_ms,
    created_by_id: row.createdById,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export function presentResult(row: ResultWithItem): EvaluationResultResponse {
  return {
    item: row.itemId,
    input: row.input,
    expected_output: row.expectedOutput,
    status: row.status as EvaluationResultResponse['status'],
    output: row.output,
    data_guid: row.generationId,
    scores: row.scores,
    score_errors: row.scoreErrors,
    error: row.error,
    latency_ms: row.latencyMs,
    cost: row.costUsd,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export function presentComparison(comparison: ComparisonView): ComparisonResponse {
  return {
    base: comparison.base.id,
    candidate: comparison.candidate.id,
    evaluators: comparison.evaluators,
    regressed_items: comparison.regressedItems,
    items: comparison.items,
  };
}
