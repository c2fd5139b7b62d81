import { snippetNamePattern } from '@lectern/prompt-templates';
import { z } from 'zod';
import { folderPath } from '../../../core/folders.js';
import { versionNumber } from '../../../core/guid.js';

/** As long as one template may be: a snippet is a template's part. */
const content = z.string().max(200_000, 'at most 200,000 characters');

export const snippetName = z
  .string()
  .regex(
    snippetNamePattern,
    'lowercase letters, digits, "_" and "-", starting with a letter or digit, at most 64 characters',
  );

export const createSnippetBody = z.strictObject({
  name: snippetName,
  content,
  folder: folderPath.optional(),
  description: z.string().max(5_000).optional(),
});

export const updateSnippetBody = z.strictObject({
  content: content.optional(),
  description: z.string().max(5_000).optional(),
  folder: folderPath.optional(),
  base_version: versionNumber
    .optional()
    .describe(
      'The version this change started from: when it is no longer the latest, 409 `version_conflict`',
    ),
});

export const snippetParams = z.object({ guidOrName: z.string().min(1).max(200) });

export const snippetListQuery = z.object({
  folder: folderPath.optional().describe('only snippets in this folder and below'),
});

export type CreateSnippetInput = z.infer<typeof createSnippetBody>;
export type UpdateSnippetInput = z.infer<typeof updateSnippetBody>;
