import type { DatasetItemRow, DatasetRow } from './repository.js';
import type { DatasetItemResponse, DatasetResponse } from './responses.js';

export function presentDataset(row: DatasetRow): DatasetResponse {
  return {
    guid: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    item_count: row.itemCount,
    created_by_id: row.createdById,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentDatasetItem(row: DatasetItemRow): DatasetItemResponse {
  return {
    guid: row.itemId,
    input: row.input,
    expected_output: row.expectedOutput,
    metadata: row.metadata,
  };
}
