import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { workspaceOf } from '../../../http/authentication.js';
import { folderResponse } from './responses.js';
import type { FolderService } from './service.js';

export function folderRoutes(folders: FolderService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/folders',
      {
        schema: {
          'x-right': 'read',
          tags: ['folders'],
          description:
            'Every folder that holds an Action or a snippet, and the folders above it (not the root); each count covers the folder and below',
          response: { 200: z.array(folderResponse) },
        },
      },
      async (request) =>
        (await folders.list(workspaceOf(request).id)).map((folder) => ({
          path: folder.path,
          action_count: folder.actionCount,
          snippet_count: folder.snippetCount,
        })),
    );
  };
}
