import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Span, type TraceWithSpans } from '../../../api';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { AddToReviewQueue } from '../generations/AddToReviewQueue';
import { SpanDetails } from './SpanDetails';
import { durationLabel, StatusBadge } from './trace-parts';

/** How deep each span sits: its parent's depth plus one (a span whose parent is missing is at the top). */
function depths(spans: Span[]): Map<string, number> {
  const bySpan = new Map(spans.map((span) => [span.span_id, span]));
  const depth = new Map<string, number>();
  for (const span of spans) {
    let level = 0;
    const seen = new Set<string>();
    for (let parent = span.parent_span_id; parent && bySpan.has(parent) && !seen.has(parent); ) {
      seen.add(parent);
      level += 1;
      parent = bySpan.get(parent)?.parent_span_id ?? null;
    }
    depth.set(span.span_id, level);
  }
  return depth;
}

/** The spans on one time axis: each row a span (parents before children), its bar where and how long it ran. */
function Waterfall({
  trace,
  selected,
  onSelect,
}: {
  trace: TraceWithSpans;
  selected: string | undefined;
  onSelect: (spanId: string) => void;
}) {
  const start = Date.parse(trace.start_time);
  const total = Math.max(trace.duration_ms, 0.001);
  const level = depths(trace.spans);
  return (
    <ol className="waterfall" aria-label="Spans">
      {trace.spans.map((span) => {
        // Milliseconds from ISO times: the nanoseconds matter less than the bar's pixel.
        const offset = Math.max(0, Date.parse(span.start_time) - start);
        const left = Math.min(100, (offset / total) * 100);
        const width = Math.max(0.4, Math.min(100 - left, (span.duration_ms / total) * 100));
        return (
          <li key={span.span_id}>
            <button
              type="button"
              className={span.span_id === selected ? 'span-row selected' : 'span-row'}
              aria-pressed={span.span_id === selected}
              onClick={() => onSelect(span.span_id)}
            >
              <span className="span-name" style={{ paddingLeft: `${(level.get(span.span_id) ?? 0) * 16}px` }}>
                {span.status === 'ERROR' && <span className="span-failed">failed · </span>}
                {span.name}
                {span.data_guid && <span className="badge">generation</span>}
              </span>
              <span className="span-track" aria-hidden="true">
                <span
                  className={span.status === 'ERROR' ? 'span-bar failed' : 'span-bar'}
                  style={{ left: `${left}%`, width: `${width}%` }}
                />
              </span>
              <span className="span-duration">{durationLabel(span.duration_ms)}</span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** One trace: its figures, a waterfall of its spans, and the chosen span's attributes, events and chat. */
export default function TracePage() {
  const { traceId = '' } = useParams();
  const trace = useQuery({
    queryKey: keys.traces.one(traceId),
    queryFn: () => api('GET /v1/traces/{trace_id}', { path: { trace_id: traceId } }),
  });
  const [chosen, setChosen] = useState<string>();
  if (trace.isPending) return <Loading what="the trace" />;
  if (trace.isError) return <Failure what="the trace" error={trace.error} />;
  const spans = trace.data.spans;
  // The first model call is what a person debugging an answer looks at first.
  const selected = chosen ?? spans.find((span) => span.data_guid)?.span_id ?? spans[0]?.span_id;
  const span = spans.find((each) => each.span_id === selected);
  const generations = spans.flatMap((each) => (each.data_guid ? [each.data_guid] : []));
  return (
    <section aria-labelledby="trace-title">
      <header className="page-header">
        <div>
          <h1 id="trace-title">{trace.data.name ?? 'Trace'}</h1>
          <p className="muted subtitle">
            <code>{trace.data.trace_id}</code> · {trace.data.service_name ?? 'unknown service'} ·{' '}
            <time dateTime={trace.data.start_time}>{new Date(trace.data.start_time).toLocaleString()}</time>
          </p>
        </div>
        <Link to="/traces">All traces</Link>
      </header>
      <dl className="facts inline">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={trace.data.status} />
        </dd>
        <dt>Duration</dt>
        <dd>{durationLabel(trace.data.duration_ms)}</dd>
        <dt>Spans</dt>
        <dd>{trace.data.span_count}</dd>
        <dt>Tokens</dt>
        <dd>
          {trace.data.input_tokens} in · {trace.data.output_tokens} out
        </dd>
        <dt>Cost</dt>
        <dd>{trace.data.cost > 0 ? `$${trace.data.cost.toFixed(6)}` : '—'}</dd>
        {trace.data.session && (
          <>
            <dt>Session</dt>
            <dd>
              <Link to={`/traces?session=${encodeURIComponent(trace.data.session)}`}>
                {trace.data.session}
              </Link>
            </dd>
          </>
        )}
      </dl>
      {generations.length > 0 && (
        <AddToReviewQueue
          selected={generations}
          what={generations.length === 1 ? 'its generation' : `its ${generations.length} generations`}
        />
      )}
      <div className="trace-layout">
        <Waterfall trace={trace.data} selected={selected} onSelect={setChosen} />
        {span && <SpanDetails span={span} />}
      </div>
    </section>
  );
}
