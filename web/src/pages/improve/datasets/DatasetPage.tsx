import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Body, sendFile } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { DatasetItems } from './DatasetItems';

/** A typed input: JSON when it parses as an object or an array (variables, messages), else the text. */
function inputOf(
  text: string,
): NonNullable<Body<'POST /v1/datasets/{guid}/items'>['items']>[number]['input'] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // Not JSON after all: the text itself is the input.
    }
  }
  return text;
}

function AddItemForm({ datasetGuid }: { datasetGuid: string }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const [input, setInput] = useState('');
  const [expected, setExpected] = useState('');
  const add = useMutation({
    mutationFn: () =>
      api('POST /v1/datasets/{guid}/items', {
        path: { guid: datasetGuid },
        body: {
          items: [{ input: inputOf(input), expected_output: expected === '' ? null : expected }],
        },
      }),
    onSuccess: () => {
      setInput('');
      setExpected('');
      void queries.invalidateQueries({ queryKey: keys.datasets.one(datasetGuid) });
      void queries.invalidateQueries({ queryKey: keys.datasets.all });
    },
  });
  const submit = submitWith(add);
  return (
    <form onSubmit={submit} aria-label="Add an item" className="panel">
      <h2 className="section-title">Add an item</h2>
      <div className="form-row">
        <Field
          label="Input"
          name="items.0.input"
          error={add.error}
          hint="Text, or JSON: an object of variables"
        >
          <textarea rows={2} required value={input} onChange={(event) => setInput(event.target.value)} />
        </Field>
        <Field label="Expected output (optional)" name="items.0.expected_output" error={add.error}>
          <textarea rows={2} value={expected} onChange={(event) => setExpected(event.target.value)} />
        </Field>
        <button type="submit" disabled={!gate.allowed || add.isPending} title={gate.reason}>
          Add item
        </button>
      </div>
      {gate.note}
      <FormError error={add.error} fields={['items']} />
    </form>
  );
}

function ImportForm({ datasetGuid }: { datasetGuid: string }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const [file, setFile] = useState<File>();
  const upload = useMutation({
    mutationFn: (chosen: File) =>
      sendFile(
        'POST /v1/datasets/{guid}/items/import',
        { path: { guid: datasetGuid } },
        chosen,
        chosen.name.toLowerCase().endsWith('.csv') ? 'text/csv' : 'application/x-ndjson',
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: keys.datasets.one(datasetGuid) });
      void queries.invalidateQueries({ queryKey: keys.datasets.all });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  return (
    <form onSubmit={submit} aria-label="Import a file" className="panel">
      <h2 className="section-title">Import a file</h2>
      <div className="form-row">
        <Field label="JSON Lines or CSV file" hint="One item a line; a CSV names its columns in a header row">
          <input
            type="file"
            accept=".jsonl,.ndjson,.csv"
            onChange={(event) => setFile(event.target.files?.[0])}
          />
        </Field>
        <button type="submit" disabled={!gate.allowed || !file || upload.isPending} title={gate.reason}>
          {upload.isPending ? 'Importing…' : 'Import'}
        </button>
      </div>
      {upload.isSuccess && (
        <p role="status">
          Imported {upload.data.added} items as version {upload.data.version}.
        </p>
      )}
      <FormError error={upload.error} fields={[]} />
    </form>
  );
}

/** One dataset: its items in any version, items added one at a time or from a file, and its export. */
export default function DatasetPage() {
  const { guid = '' } = useParams();
  const dataset = useQuery({
    queryKey: keys.datasets.one(guid),
    queryFn: () => api('GET /v1/datasets/{guid}', { path: { guid } }),
  });
  const [chosenVersion, setChosenVersion] = useState<number>();
  if (dataset.isPending) return <Loading what="the dataset" />;
  if (dataset.isError) return <Failure what="the dataset" error={dataset.error} />;
  const newest = dataset.data.version;
  const version = chosenVersion ?? newest;
  return (
    <section aria-labelledby="dataset-title">
      <header className="page-header">
        <div>
          <h1 id="dataset-title">{dataset.data.name}</h1>
          {dataset.data.description && <p className="muted subtitle">{dataset.data.description}</p>}
        </div>
        <div className="form-row">
          <Field label="Version">
            <select value={version} onChange={(event) => setChosenVersion(Number(event.target.value))}>
              {Array.from({ length: newest }, (_, index) => newest - index).map((each) => (
                <option key={each} value={each}>
                  v{each}
                  {each === newest ? ' (newest)' : ''}
                </option>
              ))}
            </select>
          </Field>
          <a
            className="button secondary"
            href={`/v1/datasets/${guid}/items/export?version=${version}`}
            download
          >
            Export v{version}
          </a>
          <a
            className="button secondary"
            href={`/v1/datasets/${guid}/items/export?version=${version}&format=openai_chat`}
            download
          >
            Fine-tuning JSONL
          </a>
          <Link className="button" to={`/evaluations?dataset=${guid}`}>
            Evaluate
          </Link>
        </div>
      </header>
      <ImportForm datasetGuid={guid} />
      <AddItemForm datasetGuid={guid} />
      <h2 className="section-title">
        Items of v{version} ({version === newest ? `${dataset.data.item_count}, newest` : 'earlier version'})
      </h2>
      <DatasetItems datasetGuid={guid} version={version} newest={version === newest} />
    </section>
  );
}
