import { cloneElement, type FormEvent, type ReactElement, useId } from 'react';

/**
 * A labelled control with the API's 400 message (or the form's own check) under it when the message names this field
 * (`name`, or a dotted path starting with it), so the person fixes the right input.
 */
export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  /** The API's name for the field (`name`, `model`, `model_config`…), when its errors show here. */
  name?: string;
  error?: Error | null;
  hint?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const message = name === undefined ? undefined : fieldError(error, name);
  const describedBy = [hint && `${id}-hint`, message && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': message ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {message && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

/** The message of an API error that names `name` (or one of its sub-fields). */
export function fieldError(error: Error | null | undefined, name: string): string | undefined {
  // API errors and the form's own checks (DraftError) both carry the field they name.
  const field = (error as { field?: unknown } | null | undefined)?.field;
  if (!error || typeof field !== 'string') return undefined;
  return field === name || field.startsWith(`${name}.`) ? error.message : undefined;
}

/** The message of an error no field of the form names: shown once, above the buttons. */
export function FormError({ error, fields }: { error?: Error | null; fields: string[] }) {
  if (!error || fields.some((name) => fieldError(error, name))) return null;
  return (
    <p className="field-error" role="alert">
      {error.message}
    </p>
  );
}

/**
 * A labelled password or key, never shown as typed: `autoComplete` tells a password manager which
 * it is (`current-password`, `new-password`, or `off` for a key).
 */
export function SecretField({
  label,
  name,
  error,
  hint,
  value,
  onChange,
  autoComplete,
  required = false,
  inputName,
}: {
  label: string;
  name: string;
  error: Error | null;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password' | 'off';
  required?: boolean;
  /** The input's own name attribute, when a page's tests or a password manager read it. */
  inputName?: string;
}) {
  return (
    <Field label={label} name={name} error={error} hint={hint}>
      <input
        name={inputName}
        type="password"
        autoComplete={autoComplete}
        required={required}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** A form's submit handler that runs `mutation` instead of loading a page. */
export function submitWith(mutation: { mutate: () => void }): (event: FormEvent) => void {
  return (event) => {
    event.preventDefault();
    mutation.mutate();
  };
}
