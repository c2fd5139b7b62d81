import type { FeedbackResponse } from './responses.js';
import type { Feedback } from './service.js';

/** A feedback record as the API answers it. */
export function presentFeedback(row: Feedback): FeedbackResponse {
  return {
    guid: row.id,
    data: row.generationId,
    type: row.type,
    value: row.value,
    source: row.source,
    created_by_id: row.createdById,
    metadata: row.metadata,
    // The official SDK reads metadata under this name (docs/sdk-compatibility.md).
    meta_data: row.metadata,
    deleted: row.deleted,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
