/**
 * The value a `<select>` of `values` chose, typed as one of them: the browser hands back a string,
 * and the select offers only these, so anything else is a defect of the page.
 */
export function chosen<Value extends string>(values: readonly Value[], value: string): Value {
  const found = values.find((each) => each === value);
  if (found === undefined) throw new Error(`"${value}" is not one of ${values.join(', ')}`);
  return found;
}
