import { z } from 'zod';

const valueRule = 'must be a string, number, boolean or a non-empty array of at most 100 of them';
const filterScalar = z.union([z.string(), z.number(), z.boolean()], { error: valueRule });
const filterKey = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The shared metadata-filter rule (docs/api.md#metadata-filters): keys of 1–64 letters, digits, `_`, `.`, `-`; values
 * scalar or a non-empty array of at most 100 scalars; no nested objects, no nulls.
 */
export const metadataFilter = z
  .record(z.string(), z.union([filterScalar, z.array(filterScalar).min(1).max(100)], { error: valueRule }))
  .superRefine((filter, context) => {
    for (const key of Object.keys(filter)) {
      if (!filterKey.test(key)) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: 'keys are 1 to 64 letters, digits, "_", "." or "-"',
        });
      }
    }
  });

export type MetadataFilter = z.infer<typeof metadataFilter>;
