import { type FormEvent, type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Field } from './Field';

/**
 * A list page's filters kept in the URL, so a filtered view can be bookmarked and shared: the applied
 * values, the page offset, and `update` to change some of them (a blank value removes one).
 */
export function useUrlFilters<Name extends string>(names: readonly Name[]) {
  const [params, setParams] = useSearchParams();
  const applied = Object.fromEntries(
    names.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])),
  ) as Partial<Record<Name, string>>;
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setParams(next);
  };
  return {
    params,
    applied,
    skip: Number(params.get('skip') ?? 0),
    update,
    /** Applies a whole set of filters and goes back to the first page. */
    apply: (filters: Partial<Record<Name, string>>) =>
      update({ ...Object.fromEntries(names.map((name) => [name, filters[name]])), skip: undefined }),
  };
}

/**
 * The form of a list page's filters: a draft the person edits, applied by Apply (or Enter), emptied
 * by Clear. `children` lays the fields out; `text` makes a labelled input for one filter.
 */
export function FilterForm<Name extends string>({
  label,
  applied,
  onApply,
  children,
}: {
  label: string;
  applied: Partial<Record<Name, string>>;
  onApply: (filters: Partial<Record<Name, string>>) => void;
  children: (draft: {
    filters: Partial<Record<Name, string>>;
    set: (name: Name, value: string) => void;
    text: (name: Name, label: string, type?: string) => ReactNode;
  }) => ReactNode;
}) {
  const [filters, setFilters] = useState(applied);
  const set = (name: Name, value: string) => setFilters({ ...filters, [name]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(filters);
  };
  const text = (name: Name, fieldLabel: string, type = 'text') => (
    <Field key={name} label={fieldLabel}>
      <input type={type} value={filters[name] ?? ''} onChange={(event) => set(name, event.target.value)} />
    </Field>
  );
  return (
    <form className="filters wrap" onSubmit={submit} aria-label={label}>
      {children({ filters, set, text })}
      <button type="submit">Apply</button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setFilters({});
          onApply({});
        }}
      >
        Clear
      </button>
    </form>
  );
}

/** A day of a date input as the instant that day starts in the person's time zone (plus some days). */
export function dayStart(day: string, plusDays = 0): string {
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
}
