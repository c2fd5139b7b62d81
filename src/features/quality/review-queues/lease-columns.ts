import { type SQL, sql } from 'drizzle-orm';
import { reviewItems } from './tables.js';

// An item's leases as SQL: a JSON array on its own row, and the two columns read from it that every
// change of it sets too (`lease_holders`, `leased_until`), so the hot paths read no JSON.

/** The leases of a row without `reviewer`'s and without lapsed ones. */
export const leasesWithout = (reviewer: string) => sql`(SELECT coalesce(jsonb_agg(lease), '[]'::jsonb)
  FROM jsonb_array_elements(${reviewItems.leases}) AS lease
  WHERE (lease->>'expires_at')::timestamptz > now() AND lease->>'reviewer' <> ${reviewer})`;

/** One lease of `reviewer` for `seconds`, by the database's clock (the same for every node). */
export const leaseOf = (
  reviewer: string,
  seconds: number,
) => sql`jsonb_build_array(jsonb_build_object('reviewer', ${reviewer}::text,
  'expires_at', to_char((now() + make_interval(secs => ${seconds})) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))`;

/** The changes that set a row's leases to `leases`: the array and the two columns read from it. */
export function leaseChanges(leases: SQL) {
  return {
    leases: sql`${leases}`,
    leaseHolders: sql`ARRAY(SELECT lease->>'reviewer' FROM jsonb_array_elements(${leases}) AS lease)`,
    leasedUntil: sql`(SELECT max((lease->>'expires_at')::timestamptz) FROM jsonb_array_elements(${leases}) AS lease)`,
  };
}
