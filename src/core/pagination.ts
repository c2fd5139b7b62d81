import { z } from 'zod';
import { largestStoredInteger } from './guid.js';

export const maximumLimit = 1000;

/** `skip` / `limit` (defaults 0 and 100); a limit above 1000 is capped, not refused. */
export const paginationQuery = z.object({
  skip: z.coerce.number().int().min(0).max(largestStoredInteger).default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .transform((limit) => Math.min(limit, maximumLimit)),
});

export type Pagination = z.infer<typeof paginationQuery>;

export type ListEnvelope<Item> = { data: Item[]; total_count: number; has_next_page: boolean };

export function listEnvelope<Item>(
  data: Item[],
  totalCount: number,
  pagination: Pagination,
): ListEnvelope<Item> {
  return { data, total_count: totalCount, has_next_page: pagination.skip + data.length < totalCount };
}

/** A list the service answers whole (a fixed catalogue: Skill types, provider kinds), in the page envelope. */
export function wholeList<Item>(data: Item[]): ListEnvelope<Item> {
  return { data, total_count: data.length, has_next_page: false };
}

/** One page of a list and the total across all pages. */
export type Page<Item> = { rows: Item[]; total: number };
