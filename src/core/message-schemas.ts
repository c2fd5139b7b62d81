import { z } from 'zod';

/** Messages as requests write them: runs, logged generations and session history share one rule. */

const base64 = z
  .string()
  .min(1)
  .max(30_000_000)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be Base64');

const dataUrl = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/]+={0,2}$/;

const imageUrl = z
  .string()
  .max(30_000_000)
  .refine((url) => {
    if (url.startsWith('data:')) return dataUrl.test(url) && url.startsWith('data:image/');
    return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
  }, 'must be an http(s) URL or a Base64 data URL of an image');

/** The content parts of a message; which ones a provider processes depends on the provider. */
export const messagePart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: imageUrl, detail: z.enum(['auto', 'low', 'high']).optional() }),
  }),
  z.object({
    type: z.literal('input_audio'),
    input_audio: z.object({ data: base64, format: z.enum(['wav', 'mp3']) }),
  }),
  z.object({
    type: z.literal('file'),
    file: z
      .object({
        file_data: z
          .string()
          .max(30_000_000)
          .refine(
            (data) => dataUrl.test(data) || base64.safeParse(data).success,
            'must be Base64 or a data URL',
          )
          .optional(),
        file_id: z.string().min(1).max(500).optional(),
        filename: z.string().min(1).max(500).optional(),
      })
      .refine((file) => file.file_data !== undefined || file.file_id !== undefined, {
        message: 'a file part needs file_data or file_id',
      }),
  }),
  z.object({ type: z.literal('refusal'), refusal: z.string() }),
]);

export const promptMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string(), z.array(messagePart).min(1).max(500)]),
});
