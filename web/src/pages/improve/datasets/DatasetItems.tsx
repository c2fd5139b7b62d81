import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type DatasetItem } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { QueryView } from '../../../components/states';
import { usePagedList } from '../../../paged-list';
import { keys } from '../../../queries/keys';

/** An input as the table shows it: text as it is, variables and messages as JSON. */
const inputText = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input));

/** The expected output of one item, edited in its row: saving makes the dataset's next version. */
function ExpectedOutputEditor({
  datasetGuid,
  item,
  onDone,
}: {
  datasetGuid: string;
  item: DatasetItem;
  onDone: () => void;
}) {
  const queries = useQueryClient();
  const [text, setText] = useState(item.expected_output ?? '');
  const save = useMutation({
    mutationFn: () =>
      api('PUT /v1/datasets/{guid}/items/{itemGuid}', {
        path: { guid: datasetGuid, itemGuid: item.guid },
        body: {
          expected_output: text === '' ? null : text,
        },
      }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: keys.datasets.one(datasetGuid) });
      onDone();
    },
  });
  const submit = submitWith(save);
  return (
    <form
      onSubmit={submit}
      className="inline-edit"
      aria-label={`Expected output of ${inputText(item.input)}`}
    >
      <Field label="Expected output" name="expected_output" error={save.error}>
        <textarea rows={2} value={text} onChange={(event) => setText(event.target.value)} />
      </Field>
      <button type="submit" disabled={save.isPending}>
        Save
      </button>
      <button type="button" className="secondary" onClick={onDone}>
        Cancel
      </button>
      <FormError error={save.error} fields={['expected_output']} />
    </form>
  );
}

/** The items of one version; the newest version's items may be edited and removed. */
export function DatasetItems({
  datasetGuid,
  version,
  newest,
}: {
  datasetGuid: string;
  version: number;
  newest: boolean;
}) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const [editing, setEditing] = useState<string>();
  const { query, pager } = usePagedList([...keys.datasets.one(datasetGuid), 'items', version], (page) =>
    api('GET /v1/datasets/{guid}/items', { path: { guid: datasetGuid }, query: { ...page, version } }),
  );
  const remove = useMutation({
    mutationFn: (item: string) =>
      api('DELETE /v1/datasets/{guid}/items/{itemGuid}', { path: { guid: datasetGuid, itemGuid: item } }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: keys.datasets.one(datasetGuid) }),
  });
  return (
    <QueryView
      query={query}
      what="the items"
      isEmpty={(data) => data.total_count === 0}
      empty={<p className="muted">No items in version {version}.</p>}
    >
      {(data) => (
        <>
          <DataTable
            label={`Items of version ${version}`}
            rows={data.data}
            columns={[
              {
                header: 'Input',
                cell: (item) => <div className="document-text">{inputText(item.input)}</div>,
              },
              {
                header: 'Expected output',
                cell: (item) =>
                  editing === item.guid ? (
                    <ExpectedOutputEditor
                      datasetGuid={datasetGuid}
                      item={item}
                      onDone={() => setEditing(undefined)}
                    />
                  ) : (
                    <div className="document-text">
                      {item.expected_output ?? <span className="muted">—</span>}
                    </div>
                  ),
              },
              {
                header: 'Metadata',
                cell: (item) => <code className="muted">{JSON.stringify(item.metadata)}</code>,
              },
              {
                header: <span className="visually-hidden">Changes</span>,
                cell: (item) =>
                  newest && (
                    <div className="row-actions">
                      <button
                        type="button"
                        className="secondary"
                        disabled={!gate.allowed}
                        title={gate.reason}
                        aria-label={`Edit the expected output of ${inputText(item.input)}`}
                        onClick={() => setEditing(item.guid)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        disabled={!gate.allowed || remove.isPending}
                        title={gate.reason}
                        aria-label={`Remove ${inputText(item.input)}`}
                        onClick={() => remove.mutate(item.guid)}
                      >
                        Remove
                      </button>
                    </div>
                  ),
              },
            ]}
          />
          <FormError error={remove.error} fields={[]} />
          {pager}
        </>
      )}
    </QueryView>
  );
}
