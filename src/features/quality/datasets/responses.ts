import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const datasetResponse = z
  .strictObject({
    guid,
    name: z.string(),
    description: z.string(),
    version: z.number().int().describe('The newest version: each change of the items adds one'),
    item_count: z.number().int().describe('Items in the newest version'),
    created_by_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Dataset' });

export const datasetItemResponse = z
  .strictObject({
    guid: guid.describe('The same in every version the item is in'),
    input: z.unknown(),
    expected_output: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'DatasetItem' });

export const itemsAddedResponse = z.strictObject({ added: z.number().int(), version: z.number().int() });

export const itemChangedResponse = z.strictObject({ version: z.number().int(), item: datasetItemResponse });

export const itemRemovedResponse = z.strictObject({
  guid,
  deleted: z.literal(true),
  version: z.number().int(),
});

export type DatasetResponse = z.output<typeof datasetResponse>;
/** A line of OpenAI's chat fine-tuning format: the messages, the last the assistant's answer. */
const chatFineTuningExample = z
  .strictObject({
    messages: z.array(z.object({ role: z.string(), content: z.unknown() })),
  })
  .meta({ id: 'ChatFineTuningExample' });

/** One line of a dataset's export: an item, or with `format=openai_chat` a fine-tuning example. */
export const exportLineResponse = z
  .union([datasetItemResponse, chatFineTuningExample])
  .describe(
    'One line of the export (JSON Lines): a DatasetItem, or with format=openai_chat a ChatFineTuningExample',
  );

export type DatasetItemResponse = z.output<typeof datasetItemResponse>;
