import { z } from 'zod';
import { guid } from '../../../core/guid.js';

const feedbackFields = {
  type: z.string().trim().min(1).max(100).describe('rating, correction, issue, action, … (any string)'),
  value: z.string().max(100_000).describe('stored as given: never translated to a number'),
  source: z.string().min(1).max(100).optional(),
};

/** A feedback body (docs/api.md#generations-v1data). */
export const feedbackBody = z.strictObject({
  ...feedbackFields,
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** The legacy collection route `POST /v1/feedback/` of older clients (docs/sdk-compatibility.md). */
export const legacyFeedbackBody = z.object({
  ...feedbackFields,
  data: guid,
  meta_data: z.record(z.string(), z.unknown()).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

/**
 * `PUT /v1/feedback/{guid}` (the official SDK's `feedback.update`): the given fields replace the
 * stored ones. The SDK also sends `data` (and `meta_data` for metadata); a record stays on its generation.
 */
export const updateFeedbackBody = z
  .strictObject({
    type: feedbackFields.type.optional(),
    value: feedbackFields.value.optional(),
    source: feedbackFields.source,
    data: guid.optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    meta_data: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  });

export const dataGuidParams = z.object({ dataGuid: guid });

export type FeedbackInput = z.infer<typeof feedbackBody>;
export type UpdateFeedbackInput = z.infer<typeof updateFeedbackBody>;
