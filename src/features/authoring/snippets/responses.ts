import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const snippetResponse = z
  .strictObject({
    guid,
    name: z.string(),
    folder: z.string(),
    description: z.string(),
    version: z.number().int().describe('The latest version: each change of the content adds one'),
    content: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Snippet' });

export const snippetVersionResponse = z
  .strictObject({
    version: z.number().int(),
    content: z.string(),
    saved_by_id: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'SnippetVersion' });

export const snippetDependentResponse = z
  .strictObject({
    action: guid,
    slug: z.string(),
    version: z.number().int().describe("The Action's latest version, which includes the snippet"),
    pinned_version: z.number().int().describe('The snippet version that Action version includes'),
  })
  .meta({ id: 'SnippetDependent' });

export type SnippetResponse = z.output<typeof snippetResponse>;
export type SnippetVersionResponse = z.output<typeof snippetVersionResponse>;
export type SnippetDependentResponse = z.output<typeof snippetDependentResponse>;
