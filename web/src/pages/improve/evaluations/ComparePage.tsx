import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../../api';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { WordDiff } from './word-diff';

/** While either run goes on, the page asks again this often. */
const pollMs = 1_000;

const signed = (value: number | null) =>
  value === null ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(3)}`;
const share = (value: number | null) => (value === null ? '—' : value.toFixed(3));
const inputText = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input));

/** A score pair as the table shows it: base → candidate, marked when it fell or rose. */
function ScoreChange({ base, candidate }: { base: number | null; candidate: number | null }) {
  const change =
    base === null || candidate === null
      ? 'unknown'
      : candidate < base
        ? 'fell'
        : candidate > base
          ? 'rose'
          : 'same';
  return (
    <span className={`score-change ${change}`}>
      {share(base)} → {share(candidate)}
      {(change === 'fell' || change === 'rose') && <span className="visually-hidden"> ({change})</span>}
    </span>
  );
}

/**
 * Two evaluations on one dataset version: each evaluator's mean difference with its paired 95%
 * interval, then every item side by side, regressions first, the words that changed marked.
 */
export default function ComparePage() {
  const [params] = useSearchParams();
  const base = params.get('base') ?? '';
  const candidate = params.get('candidate') ?? '';
  // The two runs, asked again while either still runs: the comparison follows their progress.
  const runs = useQuery({
    queryKey: [...keys.evaluations.compare(base, candidate), 'runs'],
    queryFn: async () =>
      Promise.all([base, candidate].map((guid) => api('GET /v1/evaluations/{guid}', { path: { guid } }))),
    enabled: base !== '' && candidate !== '',
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'PENDING' || run.status === 'RUNNING') ? pollMs : false,
  });
  const progress = runs.data?.map((run) => run.progress.done).join('/') ?? '';
  const comparison = useQuery({
    queryKey: [...keys.evaluations.compare(base, candidate), progress],
    queryFn: () => api('GET /v1/evaluations/compare', { query: { base, candidate } }),
    enabled: base !== '' && candidate !== '' && runs.data !== undefined,
    placeholderData: keepPreviousData,
  });
  if (!base || !candidate)
    return <p className="page-state">Choose two evaluations on the Evaluations page.</p>;
  if (comparison.isPending) return <Loading what="the comparison" />;
  if (comparison.isError) return <Failure what="the comparison" error={comparison.error} />;
  const { evaluators, items } = comparison.data;
  const [baseRun, candidateRun] = runs.data ?? [];
  const stillRunning = runs.data?.some((run) => run.status === 'PENDING' || run.status === 'RUNNING');
  return (
    <section aria-labelledby="compare-title">
      <header className="page-header">
        <h1 id="compare-title">Compare</h1>
      </header>
      <p>
        Base: <Link to={`/evaluations/${base}`}>{baseRun?.name ?? base}</Link>
        <br />
        Candidate: <Link to={`/evaluations/${candidate}`}>{candidateRun?.name ?? candidate}</Link>
      </p>
      {stillRunning && (
        <p className="muted" aria-live="polite">
          The runs are still going: the comparison covers the items both have finished.
        </p>
      )}
      <div className="table-frame short">
        <table aria-label="Differences by evaluator">
          <thead>
            <tr>
              <th scope="col">Evaluator</th>
              <th scope="col" className="numeric">
                Base
              </th>
              <th scope="col" className="numeric">
                Candidate
              </th>
              <th scope="col" className="numeric">
                Difference
              </th>
              <th scope="col">95% interval</th>
              <th scope="col" className="numeric">
                Improved
              </th>
              <th scope="col" className="numeric">
                Regressed
              </th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(evaluators).map(([guid, each]) => (
              <tr key={guid}>
                <td>{each.name}</td>
                <td className="numeric">{share(each.base_mean)}</td>
                <td className="numeric">{share(each.candidate_mean)}</td>
                <td className="numeric">{signed(each.delta)}</td>
                <td>{each.ci_low === null ? '—' : `${signed(each.ci_low)} to ${signed(each.ci_high)}`}</td>
                <td className="numeric">{each.improved}</td>
                <td className="numeric">{each.regressed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 className="section-title">
        Items, regressions first ({comparison.data.regressed_items} regressed)
      </h2>
      <div className="table-frame">
        <table className="compare" aria-label="Items side by side">
          <thead>
            <tr>
              <th scope="col">Input</th>
              <th scope="col">Base output</th>
              <th scope="col">Candidate output</th>
              <th scope="col">Scores</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.item}>
                <td className="clip">{inputText(item.input)}</td>
                <WordDiff base={item.base_output} candidate={item.candidate_output} />
                <td>
                  {Object.entries(item.scores).map(([guid, score]) => (
                    <div key={guid}>
                      {evaluators[guid]?.name}: <ScoreChange base={score.base} candidate={score.candidate} />
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
