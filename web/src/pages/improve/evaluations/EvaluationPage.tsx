import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api, type Evaluation } from '../../../api';
import { useGate } from '../../../components/gate';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { EvaluationResults } from './EvaluationResults';
import { EvaluationStatus } from './EvaluationStatus';

/** While a run goes on its page asks again this often: the progress bar moves as items finish. */
const pollMs = 1_000;

const running = (evaluation: Evaluation | undefined) =>
  evaluation?.status === 'PENDING' || evaluation?.status === 'RUNNING';

const share = (value: number | null) => (value === null ? '—' : value.toFixed(3));

/** Each evaluator's mean with its 95% interval, over the items scored so far. */
function Summary({ evaluation }: { evaluation: Evaluation }) {
  return (
    <div className="table-frame short">
      <table aria-label="Summary">
        <thead>
          <tr>
            <th scope="col">Evaluator</th>
            <th scope="col" className="numeric">
              Mean
            </th>
            <th scope="col">95% interval</th>
            <th scope="col" className="numeric">
              Scored
            </th>
          </tr>
        </thead>
        <tbody>
          {evaluation.evaluators.map((guid) => {
            const summary = evaluation.summary[guid];
            return (
              <tr key={guid}>
                <td>{summary?.name ?? guid}</td>
                <td className="numeric">{share(summary?.mean ?? null)}</td>
                <td>
                  {summary?.ci_low === null || summary === undefined
                    ? '—'
                    : `${share(summary.ci_low)} – ${share(summary.ci_high)}`}
                </td>
                <td className="numeric">{summary?.n ?? 0}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** One evaluation: live progress while it runs, its summary, and every item's output and scores. */
export default function EvaluationPage() {
  const { guid = '' } = useParams();
  const queries = useQueryClient();
  const gate = useGate('write');
  const { name: actionName } = useActionNames();
  const evaluation = useQuery({
    queryKey: keys.evaluations.one(guid),
    queryFn: () => api('GET /v1/evaluations/{guid}', { path: { guid } }),
    refetchInterval: (query) => (running(query.state.data) ? pollMs : false),
  });
  const cancel = useMutation({
    mutationFn: () => api('POST /v1/evaluations/{guid}/cancel', { path: { guid } }),
    onSuccess: (cancelled) => {
      queries.setQueryData(keys.evaluations.one(guid), cancelled);
      void queries.invalidateQueries({ queryKey: keys.evaluations.all });
    },
  });
  if (evaluation.isPending) return <Loading what="the evaluation" />;
  if (evaluation.isError) return <Failure what="the evaluation" error={evaluation.error} />;
  const current = evaluation.data;
  return (
    <section aria-labelledby="evaluation-title">
      <header className="page-header">
        <h1 id="evaluation-title">{current.name}</h1>
        <EvaluationStatus evaluation={current} />
        {running(current) && (
          <button
            type="button"
            className="secondary"
            disabled={!gate.allowed || cancel.isPending}
            title={gate.reason}
            onClick={() => cancel.mutate()}
          >
            Cancel
          </button>
        )}
      </header>
      {cancel.error && (
        <p className="field-error" role="alert">
          {cancel.error.message}
        </p>
      )}
      {current.error && (
        <p className="field-error" role="alert">
          {current.error}
        </p>
      )}
      <dl className="facts">
        <dt>Action</dt>
        <dd>
          <Link to={`/actions/${current.action}`}>{actionName(current.action)}</Link> v{current.version}
          {current.model && ` with ${current.model}`}
        </dd>
        <dt>Dataset</dt>
        <dd>
          <Link to={`/datasets/${current.dataset}`}>version {current.dataset_version}</Link>
        </dd>
        <dt>Cost</dt>
        <dd>{current.cost.toFixed(4)} USD</dd>
        <dt>Latency</dt>
        <dd>
          p50 {current.latency_ms.p50 ?? '—'} ms · p95 {current.latency_ms.p95 ?? '—'} ms
        </dd>
      </dl>
      <Summary evaluation={current} />
      {/* The results reload as items finish, not on every poll. */}
      <EvaluationResults evaluation={current} finished={current.progress.done} />
    </section>
  );
}
