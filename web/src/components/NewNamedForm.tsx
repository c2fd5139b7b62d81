import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Field, FormError, submitWith } from './Field';
import { useGate } from './gate';

/**
 * The form that makes a record of a name and a description (a Context, a dataset) and opens its
 * page: `save` creates it, then the list under `listKey` reloads and `${pageBase}/{guid}` opens.
 */
export function NewNamedForm({
  label,
  save,
  listKey,
  pageBase,
  create: createText,
}: {
  label: string;
  /** Creates the record: `(body) => api('POST /v1/contexts', { body })`. */
  save: (body: { name: string; description: string }) => Promise<{ guid: string }>;
  listKey: readonly unknown[];
  pageBase: string;
  /** The button's text: "Create Context". */
  create: string;
}) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => save({ name, description }),
    onSuccess: (record) => {
      void queries.invalidateQueries({ queryKey: listKey });
      navigate(`${pageBase}/${record.guid}`);
    },
  });
  const submit = submitWith(create);
  return (
    <form className="form-row" onSubmit={submit} aria-label={label}>
      <Field label="Name" name="name" error={create.error}>
        <input value={name} required onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label="Description" name="description" error={create.error}>
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <button type="submit" disabled={!gate.allowed || create.isPending} title={gate.reason}>
        {create.isPending ? 'Creating…' : createText}
      </button>
      {gate.note}
      <FormError error={create.error} fields={['name', 'description']} />
    </form>
  );
}
