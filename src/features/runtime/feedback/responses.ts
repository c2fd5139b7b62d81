import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const feedbackResponse = z
  .strictObject({
    guid,
    data: guid.describe('The generation it is about'),
    type: z.string(),
    value: z.string(),
    source: z.string(),
    created_by_id: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    meta_data: z.record(z.string(), z.unknown()).describe('The official SDK’s name for `metadata`'),
    deleted: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Feedback' });

export type FeedbackResponse = z.output<typeof feedbackResponse>;
