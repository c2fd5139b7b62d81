import type { MonitorRow } from './repository.js';
import type { MonitorResponse } from './responses.js';

export function presentMonitor(row: MonitorRow): MonitorResponse {
  return {
    guid: row.id,
    action: row.actionId,
    evaluators: row.evaluatorIds,
    sample_rate: row.sampleRate,
    environment: row.environment,
    scanned_until: row.scannedUntil.toISOString(),
    created_by_id: row.createdById,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
