/**
 * JSON with every object's keys sorted and undefined fields left out: two values that mean the same
 * write the same text, however their keys were ordered (the audit chain's hashes, where the stored
 * JSONB reorders keys; the prompt files' content hashes, whatever their layout).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, each]) => each !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, each]) => `${JSON.stringify(key)}:${canonicalJson(each)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
