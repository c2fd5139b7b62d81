import { type EvaluatorTypeName, needsExpectedOutput } from './evaluator-types.js';
import type { EvaluatorRow } from './repository.js';
import type { EvaluatorResponse } from './responses.js';

export function presentEvaluator(row: EvaluatorRow): EvaluatorResponse {
  return {
    guid: row.id,
    name: row.name,
    type: row.type,
    config: row.config,
    needs_expected_output: needsExpectedOutput(row.type as EvaluatorTypeName),
    created_by_id: row.createdById,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
