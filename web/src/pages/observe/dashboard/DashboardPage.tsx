import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api, type Statistics } from '../../../api';
import { DailyChart } from '../../../components/DailyChart';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { Empty, Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { MonitorScores } from './MonitorScores';

const spans = [7, 30, 90, 365];
const dayMs = 24 * 60 * 60_000;

/** Every UTC day of the span, so days without runs show as zero rather than being skipped. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(from.slice(0, 10)); time < Date.parse(to); time += dayMs) {
    days.push(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);
const integer = (value: number) => Math.round(value).toLocaleString();
/** Cents as cents, and the fractions of a cent mock and small models cost with two significant digits. */
const dollars = (value: number) =>
  value === 0 ? '$0' : value >= 0.01 ? `$${value.toFixed(2)}` : `$${Number(value.toPrecision(2))}`;
const rateRange: [number, number] = [0, 1];
const milliseconds = (value: number | null) => (value === null ? '—' : `${Math.round(value)} ms`);

/** Runs, tokens, cost and feedback per day, and latency per Action, over a chosen span. */
export default function DashboardPage() {
  const [span, setSpan] = useState(30);
  const statistics = useQuery({
    queryKey: keys.statistics.span(span),
    queryFn: () => {
      const to = new Date(Math.ceil(Date.now() / dayMs) * dayMs);
      const from = new Date(to.getTime() - span * dayMs);
      return api('GET /v1/statistics', { query: { from: from.toISOString(), to: to.toISOString() } });
    },
  });
  const { name } = useActionNames();

  const charts = useMemo(() => {
    if (!statistics.data) return undefined;
    const days = daysOf(statistics.data.from, statistics.data.to);
    const byDay = new Map(statistics.data.days.map((day) => [day.day, day]));
    const series = (pick: (day: Statistics['days'][number]) => number | null, empty: number | null = 0) =>
      days.map((day) => {
        const figures = byDay.get(day);
        return figures ? pick(figures) : empty;
      });
    return {
      days,
      runs: [
        { label: 'Runs', values: series((day) => day.runs), color: '#2457c5' },
        { label: 'Errors', values: series((day) => day.errors), color: '#b3261e' },
      ],
      tokens: [
        { label: 'Input', values: series((day) => day.input_tokens), color: '#2457c5' },
        { label: 'Output', values: series((day) => day.output_tokens), color: '#c06c00' },
      ],
      cost: [{ label: 'Cost', values: series((day) => day.cost), color: '#1b8a5a' }],
      feedback: [
        { label: 'Feedback rate', values: series((day) => day.feedback_rate, null), color: '#8a3ab9' },
      ],
      ratings: [
        { label: 'Good', values: series((day) => day.good_feedback), color: '#1b8a5a' },
        { label: 'Bad', values: series((day) => day.bad_feedback), color: '#b3261e' },
      ],
    };
  }, [statistics.data]);

  const totals = statistics.data?.days.reduce(
    (sum, day) => ({
      runs: sum.runs + day.runs,
      tokens: sum.tokens + day.input_tokens + day.output_tokens,
      cost: sum.cost + day.cost,
      withFeedback: sum.withFeedback + (day.feedback_rate ?? 0) * day.runs,
      good: sum.good + day.good_feedback,
      bad: sum.bad + day.bad_feedback,
      errors: sum.errors + day.errors,
    }),
    { runs: 0, tokens: 0, cost: 0, withFeedback: 0, good: 0, bad: 0, errors: 0 },
  );

  return (
    <section aria-labelledby="dashboard-title">
      <header className="page-header">
        <h1 id="dashboard-title">Dashboard</h1>
        <div className="filters">
          <Field label="Span">
            <select value={span} onChange={(event) => setSpan(Number(event.target.value))}>
              {spans.map((days) => (
                <option key={days} value={days}>
                  Last {days} days
                </option>
              ))}
            </select>
          </Field>
        </div>
      </header>
      {statistics.isPending ? (
        <Loading what="the statistics" />
      ) : statistics.isError ? (
        <Failure what="the statistics" error={statistics.error} />
      ) : totals!.runs === 0 && totals!.errors === 0 ? (
        <Empty title="No runs in this span">
          <p>
            Run an Action (<Link to="/actions">Actions</Link> → Playground) and its runs, tokens and cost show
            here.
          </p>
        </Empty>
      ) : (
        <>
          <dl className="tiles">
            <div>
              <dt>Runs</dt>
              <dd>{integer(totals!.runs)}</dd>
            </div>
            <div>
              <dt>Errors</dt>
              <dd>{integer(totals!.errors)}</dd>
            </div>
            <div>
              <dt>Tokens</dt>
              <dd>{integer(totals!.tokens)}</dd>
            </div>
            <div>
              <dt>Cost</dt>
              <dd>{dollars(totals!.cost)}</dd>
            </div>
            <div>
              <dt>Feedback rate</dt>
              <dd>{percent(totals!.runs ? totals!.withFeedback / totals!.runs : null)}</dd>
            </div>
            <div>
              <dt>Rated good / bad</dt>
              <dd>
                {integer(totals!.good)} / {integer(totals!.bad)}
              </dd>
            </div>
          </dl>
          <div className="chart-grid">
            <DailyChart
              title="Runs and errors"
              days={charts!.days}
              series={charts!.runs}
              format={integer}
              integers
            />
            <DailyChart
              title="Tokens"
              days={charts!.days}
              series={charts!.tokens}
              format={integer}
              integers
            />
            <DailyChart title="Cost (USD)" days={charts!.days} series={charts!.cost} format={dollars} />
            <DailyChart
              title="Feedback rate"
              days={charts!.days}
              series={charts!.feedback}
              format={percent}
              range={rateRange}
            />
            <DailyChart
              title="Ratings: good and bad"
              days={charts!.days}
              series={charts!.ratings}
              format={integer}
              integers
            />
          </div>
          <p className="hint">
            A run counts by its latest rating: Klu’s scale, <code>2</code> good and <code>1</code> bad, or the
            words <code>positive</code> / <code>good</code> and <code>negative</code> / <code>bad</code>.
          </p>
          <h2 className="section-title">Monitor scores</h2>
          <MonitorScores days={charts!.days} scores={statistics.data.scores} />
          <h2 className="section-title">Per Action</h2>
          <DataTable
            label="Latency and feedback per Action"
            short
            rows={statistics.data.actions}
            rowKey={(row) => row.action}
            columns={[
              {
                header: 'Action',
                cell: (row) => <Link to={`/generations?action=${row.action}`}>{name(row.action)}</Link>,
              },
              { header: 'Runs', numeric: true, cell: (row) => integer(row.runs) },
              { header: 'Latency p50', numeric: true, cell: (row) => milliseconds(row.latency_p50_ms) },
              { header: 'Latency p95', numeric: true, cell: (row) => milliseconds(row.latency_p95_ms) },
              { header: 'Feedback rate', numeric: true, cell: (row) => percent(row.feedback_rate) },
              { header: 'Rated good', numeric: true, cell: (row) => integer(row.good_feedback) },
              { header: 'Rated bad', numeric: true, cell: (row) => integer(row.bad_feedback) },
            ]}
          />
        </>
      )}
    </section>
  );
}
