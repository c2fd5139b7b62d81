/** The header that carries a bare-array list's total (the official SDK reads some lists as arrays). */
export const totalCountHeader = 'x-total-count';

/**
 * A list answered as a bare JSON array, as the official SDK reads it (docs/sdk-compatibility.md);
 * the total that the envelope would carry goes in the `X-Total-Count` header.
 */
export function bareList<Item>(
  reply: { header(name: string, value: string): unknown },
  rows: Item[],
  total: number,
): Item[] {
  reply.header(totalCountHeader, String(total));
  return rows;
}
