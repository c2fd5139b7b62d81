import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { workspaceOf } from '../../http/authentication.js';
import { fileParams, fileQuery, uploadBody } from './schemas.js';
import type { FileService } from './service.js';

export function fileUploadRoutes(files: FileService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/files/upload', { schema: { tags: ['files'], body: uploadBody } }, async (request) => {
      return files.upload(workspaceOf(request).id, request.body.data);
    });
  };
}

/** GET of a signed file URL: authorised by its token, not by an API key (registered outside /v1 auth). */
export function fileDownloadRoutes(files: FileService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/files/:guid',
      { schema: { tags: ['files'], params: fileParams, querystring: fileQuery, security: [] } },
      async (request, reply) => {
        const { bytes, mimeType } = await files.download(request.params.guid, request.query.token);
        return (
          reply
            .header('content-type', mimeType.startsWith('text/') ? `${mimeType}; charset=utf-8` : mimeType)
            .header('x-content-type-options', 'nosniff')
            // An uploaded HTML file must not run as a page of this origin.
            .header('content-security-policy', "sandbox; default-src 'none'")
            .header('cache-control', 'private, max-age=600')
            .send(bytes)
        );
      },
    );
  };
}
