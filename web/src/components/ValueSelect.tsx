import type { SelectHTMLAttributes } from 'react';

type Choice<Value extends string> =
  | { any?: undefined; onChoose: (value: Value) => void }
  /** A first option labelled `any` stands for no choice, `''`. */
  | { any: string; onChoose: (value: Value | '') => void };

/**
 * A `<select>` of one of `values`, a closed set of the API (roles, statuses, search modes, through
 * src/contract.ts): the browser hands back a string, this hands back one of the values. Other
 * attributes (a Field's id and aria, `disabled`, `title`) pass on to the select.
 */
export function ValueSelect<Value extends string>(
  props: { values: readonly Value[]; value: Value | '' } & Choice<Value> &
    Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'>,
) {
  const { values, value, any, onChoose, ...attributes } = props;
  const choose = (text: string) => {
    const found = values.find((each) => each === text);
    if (found !== undefined) onChoose(found);
    else if (any !== undefined) (onChoose as (value: '') => void)('');
  };
  return (
    <select {...attributes} value={value} onChange={(event) => choose(event.target.value)}>
      {any !== undefined && <option value="">{any}</option>}
      {values.map((each) => (
        <option key={each} value={each}>
          {each}
        </option>
      ))}
    </select>
  );
}
