/**
 * The fields of a change that were given: `undefined` means "left out" (keep what is stored),
 * while `null` is a value (clear it). Spreading the result over stored values applies the change.
 */
export function givenFields<Fields extends object>(fields: Fields): Partial<Fields> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<Fields>;
}
