/** `items` cut into consecutive slices of at most `size` (the last may be shorter). */
export function slicesOf<Item>(items: readonly Item[], size: number): Item[][] {
  const slices: Item[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}
