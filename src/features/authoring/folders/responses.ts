import { z } from 'zod';

export const folderResponse = z
  .strictObject({
    path: z.string().describe('"/"-separated segments, e.g. "support/billing"'),
    action_count: z.number().int().describe('Actions in this folder and below'),
    snippet_count: z.number().int().describe('Snippets in this folder and below'),
  })
  .meta({ id: 'Folder' });

export type FolderResponse = z.output<typeof folderResponse>;
