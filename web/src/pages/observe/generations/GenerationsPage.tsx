import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useActionNames } from '../../../action-names';
import { type Action, api, type Query, routeUrl, versionLabel } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { Pager } from '../../../components/Pager';
import { Empty, Failure, Loading } from '../../../components/states';
import { dayStart, FilterForm, useUrlFilters } from '../../../components/url-filters';
import { keys } from '../../../queries/keys';
import { useAllEvaluators } from '../../../queries/lists';
import { AddToDataset } from './AddToDataset';
import { AddToReviewQueue } from './AddToReviewQueue';
import { GenerationDrawer } from './GenerationDrawer';

const pageSize = 50;

/** The filters the URL carries (so a filtered view can be bookmarked and shared) and the API takes. */
const filterNames = [
  'action',
  'environment',
  'version',
  'model',
  'source',
  'session',
  'from',
  'to',
  'q',
  'feedback',
  'evaluator',
  'score_below',
] as const;
type Filters = Partial<Record<(typeof filterNames)[number], string>>;

const sources = [
  'sync',
  'stream',
  'async',
  'experiment',
  'workflow',
  'skill',
  'evaluation',
  'mcp',
  'api',
  'gateway',
  'otel',
];

/** The API's filters from the page's: numbers as numbers, days as instants, blanks left out. */
function queryOf(filters: Filters): Query<'GET /v1/data'> {
  const text = (name: keyof Filters) => filters[name]?.trim() || undefined;
  const number = (name: keyof Filters) => {
    const value = text(name);
    return value === undefined ? undefined : Number(value);
  };
  const from = text('from');
  const to = text('to');
  return {
    action: text('action'),
    environment: text('environment'),
    version: number('version'),
    model: text('model'),
    source: text('source'),
    session: text('session'),
    from: from && dayStart(from),
    // "to" is a day the range includes; the API's `to` is exclusive.
    to: to && dayStart(to, 1),
    q: text('q'),
    feedback: text('feedback'),
    evaluator: text('evaluator'),
    score_below: number('score_below'),
  };
}

function FilterBar({
  actions,
  applied,
  onApply,
}: {
  actions: Action[];
  applied: Filters;
  onApply: (filters: Filters) => void;
}) {
  const evaluators = useAllEvaluators().data?.data ?? [];
  return (
    <FilterForm label="Filter generations" applied={applied} onApply={onApply}>
      {({ filters, set, text }) => (
        <>
          <Field label="Action">
            <select value={filters.action ?? ''} onChange={(event) => set('action', event.target.value)}>
              <option value="">Any</option>
              {actions.map((action) => (
                <option key={action.guid} value={action.guid}>
                  {action.name}
                </option>
              ))}
            </select>
          </Field>
          {text('environment', 'Environment')}
          {text('version', 'Version', 'number')}
          {text('model', 'Model')}
          <Field label="Source">
            <select value={filters.source ?? ''} onChange={(event) => set('source', event.target.value)}>
              <option value="">Any</option>
              {sources.map((source) => (
                <option key={source}>{source}</option>
              ))}
            </select>
          </Field>
          {text('session', 'Session')}
          {text('from', 'From', 'date')}
          {text('to', 'To', 'date')}
          {text('q', 'Text in input or output', 'search')}
          {text('feedback', 'Feedback value')}
          <Field label="Evaluator">
            <select
              value={filters.evaluator ?? ''}
              onChange={(event) => set('evaluator', event.target.value)}
            >
              <option value="">Any</option>
              {evaluators.map((evaluator) => (
                <option key={evaluator.guid} value={evaluator.guid}>
                  {evaluator.name}
                </option>
              ))}
            </select>
          </Field>
          {text('score_below', 'Monitor score below', 'number')}
        </>
      )}
    </FilterForm>
  );
}

/** Every generation of the workspace, filtered on the server, with a drawer per record and an export. */
export default function GenerationsPage() {
  const { params, applied, skip, update, apply } = useUrlFilters(filterNames);
  const open = params.get('open');
  const query = queryOf(applied);
  const { actions, name: actionName } = useActionNames();
  const records = useQuery({
    queryKey: keys.generations.page(JSON.stringify(query), skip),
    queryFn: () => api('GET /v1/data', { query: { ...query, skip, limit: pageSize } }),
    placeholderData: keepPreviousData,
  });
  const close = () => update({ open: undefined });
  // Generations picked in the table (across pages) for "Add to dataset" and "Add to review queue".
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (guid: string) =>
    setSelected((current) =>
      current.includes(guid) ? current.filter((each) => each !== guid) : [...current, guid],
    );

  return (
    <section aria-labelledby="generations-title">
      <header className="page-header">
        <h1 id="generations-title">Generations</h1>
        <div className="actions-row">
          <a
            className="button secondary"
            href={routeUrl('GET /v1/data/export', { query: { ...query, format: 'jsonl' } })}
            download
          >
            Export JSONL
          </a>
          <a
            className="button secondary"
            href={routeUrl('GET /v1/data/export', { query: { ...query, format: 'csv' } })}
            download
          >
            Export CSV
          </a>
        </div>
      </header>
      <FilterBar key={params.toString()} actions={actions} applied={applied} onApply={apply} />
      <AddToDataset selected={selected} onAdded={() => setSelected([])} />
      <AddToReviewQueue selected={selected} onAdded={() => setSelected([])} />
      {records.isPending ? (
        <Loading what="the generations" />
      ) : records.isError ? (
        <Failure what="the generations" error={records.error} />
      ) : records.data.total_count === 0 ? (
        <Empty
          title={
            Object.values(query).some((value) => value !== undefined)
              ? 'No generation matches these filters'
              : 'No generations yet'
          }
        >
          <p>Every run of an Action is stored here with its prompt, answer, tokens, latency and cost.</p>
        </Empty>
      ) : (
        <>
          <DataTable
            label="Generations"
            rows={records.data.data}
            rowClass={(record) => (record.guid === open ? 'selected' : undefined)}
            columns={[
              {
                header: <span className="visually-hidden">Selected</span>,
                cell: (record) => (
                  <input
                    type="checkbox"
                    aria-label={`Select the generation of ${new Date(record.created_at).toLocaleString()}`}
                    checked={selected.includes(record.guid)}
                    onChange={() => toggle(record.guid)}
                  />
                ),
              },
              {
                header: 'Created',
                cell: (record) => (
                  <button type="button" className="link" onClick={() => update({ open: record.guid })}>
                    <time dateTime={record.created_at}>{new Date(record.created_at).toLocaleString()}</time>
                  </button>
                ),
              },
              { header: 'Action', cell: (record) => actionName(record.action) },
              {
                header: 'Version',
                cell: (record) => (
                  <>
                    {versionLabel(record)}
                    {record.environment && <div className="muted">{record.environment}</div>}
                  </>
                ),
              },
              {
                header: 'Session',
                cell: (record) =>
                  record.session ? (
                    <Link to={`/sessions/${record.session}`} title={record.session}>
                      {record.session.slice(0, 8)}…
                    </Link>
                  ) : (
                    <span className="muted">—</span>
                  ),
              },
              { header: 'Model', cell: (record) => <code>{record.model ?? '—'}</code> },
              {
                header: 'Tokens',
                numeric: true,
                cell: (record) => `${record.num_input_tokens ?? '—'} / ${record.num_output_tokens ?? '—'}`,
              },
              {
                header: 'Latency',
                numeric: true,
                cell: (record) => (record.latency_ms == null ? '—' : `${record.latency_ms} ms`),
              },
              {
                header: 'Cost',
                numeric: true,
                cell: (record) =>
                  record.cost?.generation === undefined ? '—' : `$${record.cost.generation.toFixed(5)}`,
              },
              { header: 'Feedback', numeric: true, cell: (record) => record.feedback_count ?? '—' },
              { header: 'Source', cell: (record) => record.source ?? '—' },
              { header: 'Output', cell: (record) => <div className="clip">{record.output}</div> },
            ]}
          />
          <Pager
            skip={skip}
            pageSize={pageSize}
            total={records.data.total_count}
            hasNext={records.data.has_next_page}
            onSkip={(next) => update({ skip: next ? String(next) : undefined })}
          />
        </>
      )}
      {open && <GenerationDrawer guid={open} actionName={actionName} onClose={close} />}
    </section>
  );
}
