import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, type Query } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { Pager } from '../../../components/Pager';
import { Empty, Failure, Loading } from '../../../components/states';
import { dayStart, FilterForm, useUrlFilters } from '../../../components/url-filters';
import { keys } from '../../../queries/keys';
import { durationLabel, StatusBadge } from './trace-parts';

const pageSize = 50;

/** The filters the URL carries (a filtered view can be bookmarked) and the API takes. */
const filterNames = ['name', 'status', 'session', 'min_duration_ms', 'since', 'until'] as const;
type Filters = Partial<Record<(typeof filterNames)[number], string>>;
const statuses = ['OK', 'ERROR', 'UNSET'] as const;

/** The API's query from the page's filters: days as instants in the person's time zone, blanks left out. */
function queryOf(filters: Filters): Query<'GET /v1/traces'> {
  const text = (name: keyof Filters) => filters[name]?.trim() || undefined;
  const day = (name: keyof Filters, plusDays = 0) => {
    const value = text(name);
    return value ? dayStart(value, plusDays) : undefined;
  };
  const status = text('status');
  const minimum = text('min_duration_ms');
  return {
    name: text('name'),
    session: text('session'),
    status: statuses.find((each) => each === status),
    min_duration_ms: minimum === undefined ? undefined : Number(minimum),
    since: day('since'),
    // "Until" is a day the range includes; the API's `until` is exclusive.
    until: day('until', 1),
  };
}

function FilterBar({ applied, onApply }: { applied: Filters; onApply: (filters: Filters) => void }) {
  return (
    <FilterForm label="Filter traces" applied={applied} onApply={onApply}>
      {({ filters, set, text }) => (
        <>
          {text('name', 'Root span name')}
          <Field label="Status">
            <select value={filters.status ?? ''} onChange={(event) => set('status', event.target.value)}>
              <option value="">Any</option>
              {statuses.map((status) => (
                <option key={status}>{status}</option>
              ))}
            </select>
          </Field>
          {text('session', 'Session')}
          {text('min_duration_ms', 'At least (ms)', 'number')}
          {text('since', 'From', 'date')}
          {text('until', 'To', 'date')}
        </>
      )}
    </FilterForm>
  );
}

/** What to set in an application for its traces to come here: shown until the first one arrives. */
function SetupHint() {
  return (
    <Empty title="No traces yet">
      <p>
        Lectern stores its own runs as traces, and receives your applications' OpenTelemetry traces. Point
        their OTLP exporter here with a key of any role but viewer:
      </p>
      <pre className="block">
        {`OTEL_EXPORTER_OTLP_ENDPOINT=${window.location.origin}/v1/otel
OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer <key>"
OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`}
      </pre>
      <p>Model calls among their spans also appear under Generations, with their cost.</p>
    </Empty>
  );
}

/** The workspace's traces, newest first, filtered on the server. */
export default function TracesPage() {
  const { params, applied, skip, update, apply } = useUrlFilters(filterNames);
  const query = queryOf(applied);
  const traces = useQuery({
    queryKey: keys.traces.page(JSON.stringify(query), skip),
    queryFn: () => api('GET /v1/traces', { query: { ...query, skip, limit: pageSize } }),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.values(query).some((value) => value !== undefined);

  return (
    <section aria-labelledby="traces-title">
      <header className="page-header">
        <h1 id="traces-title">Traces</h1>
      </header>
      <FilterBar key={params.toString()} applied={applied} onApply={apply} />
      {traces.isPending ? (
        <Loading what="the traces" />
      ) : traces.isError ? (
        <Failure what="the traces" error={traces.error} />
      ) : traces.data.total_count === 0 ? (
        filtered ? (
          <Empty title="No trace matches these filters">
            <p>Clear a filter, or widen the days.</p>
          </Empty>
        ) : (
          <SetupHint />
        )
      ) : (
        <>
          <DataTable
            label="Traces"
            rows={traces.data.data}
            rowKey={(trace) => trace.trace_id}
            columns={[
              {
                header: 'Trace',
                cell: (trace) => (
                  <Link to={`/traces/${trace.trace_id}`}>
                    {trace.name ?? (
                      <span className="muted">(root not received) {trace.trace_id.slice(0, 8)}</span>
                    )}
                  </Link>
                ),
              },
              { header: 'Service', cell: (trace) => trace.service_name ?? '—' },
              {
                header: 'Started',
                cell: (trace) => (
                  <time dateTime={trace.start_time}>{new Date(trace.start_time).toLocaleString()}</time>
                ),
              },
              { header: 'Duration', numeric: true, cell: (trace) => durationLabel(trace.duration_ms) },
              { header: 'Spans', numeric: true, cell: (trace) => trace.span_count },
              { header: 'Status', cell: (trace) => <StatusBadge status={trace.status} /> },
              {
                header: 'Tokens',
                numeric: true,
                cell: (trace) =>
                  trace.input_tokens + trace.output_tokens > 0
                    ? `${trace.input_tokens} / ${trace.output_tokens}`
                    : '—',
              },
              {
                header: 'Cost',
                numeric: true,
                cell: (trace) => (trace.cost > 0 ? `$${trace.cost.toFixed(6)}` : '—'),
              },
              { header: 'Session', cell: (trace) => trace.session ?? '—' },
            ]}
          />
          <Pager
            skip={skip}
            pageSize={pageSize}
            total={traces.data.total_count}
            hasNext={traces.data.has_next_page}
            onSkip={(next) => update({ skip: next > 0 ? String(next) : undefined })}
          />
        </>
      )}
    </section>
  );
}
