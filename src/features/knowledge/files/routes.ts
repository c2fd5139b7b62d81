import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PayloadTooLargeError, ValidationError } from '../../../errors.js';
import { workspaceOf } from '../../../http/authentication.js';
import { fileBytesResponse, uploadResponse } from './responses.js';
import { fileParams, fileQuery, uploadBody } from './schemas.js';
import type { FileService } from './service.js';

export function fileUploadRoutes(files: FileService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/files/upload',
      {
        schema: { 'x-right': 'write', tags: ['files'], body: uploadBody, response: { 200: uploadResponse } },
      },
      async (request) => {
        return files.upload(workspaceOf(request).id, request.body.data);
      },
    );
  };
}

/**
 * Routes authorised by a signature instead of an API key (registered outside /v1 auth): the GET of a
 * signed file URL, and the upload of a presigned form.
 */
export function signedFileRoutes(files: FileService, maximumBytes: number): FastifyPluginAsyncZod {
  return async (app) => {
    // Multipart bodies are parsed in this scope only: one file, a few small fields.
    await app.register(multipart, {
      limits: { fileSize: maximumBytes, files: 1, fields: 10, fieldSize: 1_000, parts: 11 },
    });

    // S3-style presigned POST (the official SDK's uploadFile): the fields, then the file; 204 when stored.
    app.post(
      '/v1/files/form-upload',
      {
        schema: {
          'x-right': 'public',
          tags: ['files'],
          security: [],
          response: { 204: z.null().describe('The file is stored') },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) throw new ValidationError('body', 'send multipart/form-data');
        const part = await request.file();
        if (!part) throw new ValidationError('file', 'the form has no file');
        const fields = Object.fromEntries(
          Object.entries(part.fields).flatMap(([name, field]) =>
            field && !Array.isArray(field) && field.type === 'field' ? [[name, String(field.value)]] : [],
          ),
        );
        // The form's fields come before its file: a forged or used form is refused before the file is read.
        const target = await files.authorizeForm(fields);
        const bytes = await part.toBuffer().catch((error: unknown) => {
          if (error instanceof app.multipartErrors.RequestFileTooLargeError)
            throw new PayloadTooLargeError(`The file is larger than the limit of ${maximumBytes} bytes`);
          throw error;
        });
        await files.uploadForm(target, { bytes, mimeType: part.mimetype, filename: part.filename });
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/v1/files/:guid',
      {
        schema: {
          'x-right': 'public',
          tags: ['files'],
          params: fileParams,
          querystring: fileQuery,
          security: [],
          response: { 200: fileBytesResponse },
        },
      },
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
