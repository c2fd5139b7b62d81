import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { splitterConfig } from '../contexts/index.js';

/** http(s) only; a signed URL of this service or any reachable address (checked when fetched). */
export const sourceUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(4096);

export const createSourceBody = z.strictObject({
  url: sourceUrl,
  name: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe('what the source is called; by default the last part of its URL (an uploaded file’s GUID)'),
});

const loaderConfigItem = z
  .strictObject({
    name: z.string().min(1).max(200),
    value: z.unknown(),
    required: z.boolean().optional(),
  })
  .refine((item) => item.value !== undefined, { path: ['value'], message: 'is required' });

/** docs/api.md#how-the-parts-behave PUT is a replacement: `name`, `splitterConfig` and `loaderConfig` are all required. */
export const replaceSourceBody = z.strictObject({
  name: z.string().trim().min(1).max(500),
  splitterConfig,
  loaderConfig: z.array(loaderConfigItem).max(100),
  url: sourceUrl.optional(),
});

export const processBody = z.strictObject({ contextGuid: guid });
export const processBatchBody = z.strictObject({ sources: z.array(guid).max(1000) });
export const addFilesBody = z.strictObject({ files: z.array(sourceUrl).min(1).max(100) });

export const contextSourceParams = z.object({ contextGuid: guid, guid });
export const sourceContextParams = z.object({ contextGuid: guid });

export type ReplaceSourceInput = z.infer<typeof replaceSourceBody>;
