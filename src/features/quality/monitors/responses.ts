import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const monitorResponse = z
  .strictObject({
    guid,
    action: guid,
    evaluators: z.array(guid),
    sample_rate: z.number(),
    environment: z.string().nullable(),
    scanned_until: timestamp.describe(
      'Generations made up to here have been read (and the sampled ones scored)',
    ),
    created_by_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Monitor' });

export type MonitorResponse = z.output<typeof monitorResponse>;
