import type { ApprovalRow, GateRow } from './repository.js';
import type { ApprovalsResponse, GateResponse } from './responses.js';

export function presentGate(row: GateRow): GateResponse {
  return {
    action: row.actionId,
    environment: row.environment,
    dataset: row.datasetId,
    dataset_version: row.datasetVersion,
    evaluators: row.evaluatorIds,
    min_mean: row.minMean,
    max_regressions: row.maxRegressions,
    approvals: row.approvals,
    updated_by_id: row.updatedById,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentApprovals(actionId: string, version: number, rows: ApprovalRow[]): ApprovalsResponse {
  return {
    action: actionId,
    version,
    approvals: rows.map((row) => ({ user_id: row.userId, created_at: row.createdAt.toISOString() })),
  };
}
