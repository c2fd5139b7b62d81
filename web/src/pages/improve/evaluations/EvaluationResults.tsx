import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { type EvaluationItemStatus, evaluationItemStatuses } from '../../../../../src/contract';
import { api, type Evaluation, type EvaluationResult } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { Pager } from '../../../components/Pager';
import { Empty, QueryView } from '../../../components/states';
import { ValueSelect } from '../../../components/ValueSelect';
import { keys } from '../../../queries/keys';

const pageSize = 50;

type Filter = { status: EvaluationItemStatus | ''; evaluator: string; below: string };

const text = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

function FilterForm({ evaluation, onApply }: { evaluation: Evaluation; onApply: (filter: Filter) => void }) {
  const [filter, setFilter] = useState<Filter>({ status: '', evaluator: '', below: '' });
  const set = (name: Exclude<keyof Filter, 'status'>, value: string) =>
    setFilter({ ...filter, [name]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(filter);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Filter results">
      <Field label="Status">
        <ValueSelect
          values={evaluationItemStatuses}
          value={filter.status}
          any="Any"
          onChoose={(status) => setFilter({ ...filter, status })}
        />
      </Field>
      <Field label="Evaluator">
        <select value={filter.evaluator} onChange={(event) => set('evaluator', event.target.value)}>
          <option value="">Any</option>
          {evaluation.evaluators.map((guid) => (
            <option key={guid} value={guid}>
              {evaluation.summary[guid]?.name ?? guid}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Score below">
        <input
          type="number"
          min={0}
          max={1}
          step={0.05}
          value={filter.below}
          disabled={filter.evaluator === ''}
          onChange={(event) => set('below', event.target.value)}
        />
      </Field>
      <button type="submit">Apply</button>
    </form>
  );
}

/** Every item's input, expected and actual output, scores, and the generation behind it. */
export function EvaluationResults({ evaluation, finished }: { evaluation: Evaluation; finished: number }) {
  const [filter, setFilter] = useState<Filter>({ status: '', evaluator: '', below: '' });
  const [skip, setSkip] = useState(0);
  const scoredBelow = Boolean(filter.evaluator && filter.below);
  const query = {
    skip,
    limit: pageSize,
    status: filter.status || undefined,
    evaluator: scoredBelow ? filter.evaluator : undefined,
    score_below: scoredBelow ? Number(filter.below) : undefined,
  };
  const results = useQuery({
    queryKey: [...keys.evaluations.results(evaluation.guid, JSON.stringify(query)), finished],
    queryFn: () => api('GET /v1/evaluations/{guid}/results', { path: { guid: evaluation.guid }, query }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <h2 className="section-title">Results</h2>
      <FilterForm
        evaluation={evaluation}
        onApply={(next) => {
          setFilter(next);
          setSkip(0);
        }}
      />
      <QueryView
        query={results}
        what="the results"
        isEmpty={(data) => data.total_count === 0}
        empty={
          <Empty title="No results match">
            <p>Change the filter, or wait for the run’s items to finish.</p>
          </Empty>
        }
      >
        {(data) => (
          <>
            <DataTable
              label="Results"
              rows={data.data}
              rowKey={(result) => result.item}
              columns={[
                { header: 'Input', cell: (result) => <span className="clip">{text(result.input)}</span> },
                {
                  header: 'Expected',
                  cell: (result) => <span className="clip">{text(result.expected_output)}</span>,
                },
                {
                  header: 'Output',
                  cell: (result) =>
                    result.status === 'failed' ? (
                      <span className="field-error">{result.error}</span>
                    ) : (
                      <span className="clip">{text(result.output)}</span>
                    ),
                },
                ...evaluation.evaluators.map((guid) => ({
                  header: evaluation.summary[guid]?.name ?? guid,
                  numeric: true,
                  cell: (result: EvaluationResult) => {
                    const score = result.scores[guid];
                    if (score === undefined) return <span className="muted">…</span>;
                    if (score === null) return <span title={result.score_errors[guid]}>—</span>;
                    return score.toFixed(2);
                  },
                })),
                {
                  header: 'Generation',
                  cell: (result) =>
                    result.status === 'done' ? (
                      <Link to={`/generations?open=${result.data_guid}`}>Open</Link>
                    ) : (
                      <span className="muted">{result.status}</span>
                    ),
                },
              ]}
            />
            <Pager
              skip={skip}
              pageSize={pageSize}
              total={data.total_count}
              hasNext={data.has_next_page}
              onSkip={setSkip}
            />
          </>
        )}
      </QueryView>
    </>
  );
}
