import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const appResponse = z
  .strictObject({
    guid,
    name: z.string(),
    description: z.string(),
    app_type: z.string().nullable().describe('The official SDK’s label for the App, kept as given'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'App' });

export type AppResponse = z.output<typeof appResponse>;
