import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../../api';
import { Field, FormError } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { NamedOptions } from '../../../components/NamedOptions';
import { keys } from '../../../queries/keys';
import { useAllDatasets } from '../../../queries/lists';

/**
 * Adds the selected generations to a dataset (`from_data`): each one's input, with its output as
 * the expected one, in one new version of the dataset.
 */
export function AddToDataset({ selected, onAdded }: { selected: string[]; onAdded: () => void }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const datasets = useAllDatasets();
  const [dataset, setDataset] = useState('');
  const add = useMutation({
    mutationFn: (target: string) =>
      api('POST /v1/datasets/{guid}/items', { path: { guid: target }, body: { from_data: selected } }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: keys.datasets.all });
      onAdded();
    },
  });
  const list = datasets.data?.data ?? [];
  const chosen = dataset || list[0]?.guid || '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) add.mutate(chosen);
  };
  const name = list.find((each) => each.guid === add.variables)?.name;
  return (
    <form className="form-row" onSubmit={submit} aria-label="Add to dataset">
      <Field label="Dataset" name="dataset" error={add.error}>
        <select
          value={chosen}
          onChange={(event) => setDataset(event.target.value)}
          disabled={list.length === 0}
        >
          {list.length === 0 && <option value="">No datasets yet</option>}
          <NamedOptions records={list} />
        </select>
      </Field>
      <button
        type="submit"
        disabled={!gate.allowed || selected.length === 0 || !chosen || add.isPending}
        title={gate.reason ?? (selected.length === 0 ? 'Select generations in the table first' : undefined)}
      >
        Add {selected.length || ''} selected to dataset
      </button>
      {list.length === 0 && datasets.isSuccess && (
        <p className="muted">
          <Link to="/datasets">Create a dataset</Link> first.
        </p>
      )}
      {add.isSuccess && (
        <p role="status">
          Added {add.data.added} to <Link to={`/datasets/${add.variables}`}>{name}</Link> as version{' '}
          {add.data.version}.
        </p>
      )}
      {gate.note}
      <FormError error={add.error} fields={['dataset']} />
    </form>
  );
}
