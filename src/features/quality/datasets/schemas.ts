import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { promptInput } from '../../runtime/runs/index.js';

const datasetName = z.string().trim().min(1).max(200);
const description = z.string().max(5_000);

/** Items one request may add (by API, from generations, or from one uploaded file). */
export const maximumItemsPerChange = 10_000;

export const createDatasetBody = z.strictObject({ name: datasetName, description: description.optional() });

/** A rename or a new description: neither makes a new version. */
export const changeDatasetBody = z.strictObject({
  name: datasetName.optional(),
  description: description.optional(),
});

/** One item as a client writes it: the input an Action run takes, the output expected for it. */
export const datasetItem = z.strictObject({
  input: promptInput,
  expected_output: z.string().max(1_000_000).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

export const addItemsBody = z
  .strictObject({
    items: z.array(datasetItem).min(1).max(maximumItemsPerChange).optional(),
    from_data: z.array(guid).min(1).max(1_000).optional().describe('Generations: their input and output'),
  })
  .refine((body) => (body.items === undefined) !== (body.from_data === undefined), {
    message: 'give either items or from_data',
    path: ['items'],
  });

export const changeItemBody = datasetItem
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'name a field to change', path: ['input'] });

export const itemParams = z.object({ guid, itemGuid: guid });

export const versionQuery = z.object({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe('A version of the dataset; the newest by default'),
});

/** `GET /v1/datasets/{guid}/items/export`: the items as they are, or as chat fine-tuning examples. */
export const exportQuery = versionQuery.extend({
  format: z
    .enum(['jsonl', 'openai_chat'])
    .default('jsonl')
    .describe('openai_chat: OpenAI chat fine-tuning lines; items without expected_output are left out'),
});

export type NewDataset = z.infer<typeof createDatasetBody>;
export type DatasetChange = z.infer<typeof changeDatasetBody>;
export type NewItem = z.infer<typeof datasetItem>;
export type ItemChange = z.infer<typeof changeItemBody>;
