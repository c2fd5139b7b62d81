import { z } from 'zod';

export const uploadResponse = z.strictObject({ url: z.string().describe('A signed URL, valid ten minutes') });

/** `POST /v1/context/presign`: where to post the form, its signed fields, and the file's URL once posted. */
export const presignedUploadResponse = z.strictObject({
  url: z.string(),
  fields: z.strictObject({ key: z.string(), token: z.string(), file_name: z.string() }),
  object_url: z.string(),
});

export type PresignedUpload = z.output<typeof presignedUploadResponse>;

/** A stored file's bytes, with the type sniffed when it was stored. */
export const fileBytesResponse = {
  description: 'The file’s bytes',
  content: { 'application/octet-stream': { schema: z.unknown().describe('The bytes, as stored') } },
};
