import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { workflowBlockTypes } from '../../../core/wire-values.js';

const workflowName = z.string().trim().min(1).max(200);

export const createWorkflowBody = z.strictObject({ name: workflowName, app: guid });

export const renameWorkflowBody = z.strictObject({ name: workflowName });

const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Block names are written `{{blocks.NAME}}` in later blocks' input, so they are identifiers. */
const blockName = z
  .string()
  .regex(
    identifier,
    'letters, digits and "_", not starting with a digit, at most 64 (it is written {{blocks.NAME}})',
  );

/** docs/api.md#how-the-parts-behave block shape, shared by `PUT .../blocks` and the playground's temporary blocks. */
export const blockDefinition = z.strictObject({
  name: blockName,
  type: z.enum(workflowBlockTypes),
  /** The Action an `action` block runs: its GUID or slug. */
  action: z.string().trim().min(1).max(200).optional(),
  /** Template variable → text with `{{input.KEY}}` and `{{blocks.NAME}}`; absent = the previous output. */
  input: z
    .record(z.string().regex(identifier, 'variable names are identifiers'), z.string().max(100_000))
    .nullish(),
});

export const blocksBody = z.strictObject({ blocks: z.array(blockDefinition).max(50) });

/** docs/api.md#how-the-parts-behave trigger input: `{ key, value }` objects; values are strings, nested objects or null. */
export const triggerInput = z
  .array(
    z.strictObject({
      key: z.string().regex(identifier, 'keys are identifiers (they are written {{input.KEY}})'),
      value: z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown()), z.null()], {
        error: 'must be a string, an object or null',
      }),
    }),
  )
  .max(100)
  .superRefine((entries, refinement) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.key))
        refinement.addIssue({
          code: 'custom',
          message: `"${entry.key}" is given twice`,
          path: [index, 'key'],
        });
      seen.add(entry.key);
    });
  });

export const triggerBody = z.strictObject({ input: triggerInput.nullish() });

export const playgroundBody = z.strictObject({
  workflow: guid,
  input: triggerInput.nullish(),
  /** Temporary blocks for this run only; the stored ones when absent. */
  blocks: blocksBody.shape.blocks.nullish(),
});

export const runParams = z.object({ guid, runGuid: guid });
export const blockResultParams = runParams.extend({ blockGuid: guid });

export type BlockDefinition = z.infer<typeof blockDefinition>;
export type TriggerInput = z.infer<typeof triggerInput>;
