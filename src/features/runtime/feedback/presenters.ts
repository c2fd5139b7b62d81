import type { FeedbackResponse } from './responses.js';
import type { UpdateFeedbackInput } from './schemas.js';
import type { Feedback, FeedbackChanges } from './service.js';

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

/** `PUT /v1/feedback/{guid}` as changes: the official SDK sends `data` and `meta_data` too. */
export function feedbackChangesFromWire(body: UpdateFeedbackInput): FeedbackChanges {
  const { data, meta_data, metadata, ...fields } = body;
  return { ...fields, generationId: data, metadata: metadata ?? meta_data };
}
