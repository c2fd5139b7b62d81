import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api, type Experiment, type ExperimentResults } from '../../../api';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';

const percent = (value: number | null | undefined) => (value == null ? '—' : `${(value * 100).toFixed(1)}%`);

/** The positive-rating rate of each arm as a bar with its 95% interval drawn over it. */
function IntervalChart({ arms, name }: { arms: ExperimentResults['arms']; name: (guid: string) => string }) {
  return (
    <figure className="interval-chart">
      <figcaption>Positive rating with its 95% interval</figcaption>
      {arms.map((arm) => {
        const rating = arm.positive_rating;
        return (
          <div key={arm.variant} className="interval-row">
            <span className="interval-label">
              {arm.variant}: {name(arm.action)}
            </span>
            <div
              className="interval-track"
              role="img"
              aria-label={
                rating?.rate == null
                  ? `${arm.variant}: no ratings yet`
                  : `${arm.variant}: ${percent(rating.rate)}, 95% interval ${percent(rating.low)} to ${percent(rating.high)}, ${rating.trials} ratings`
              }
            >
              {rating?.rate != null && (
                <>
                  <div className={`interval-bar ${arm.variant}`} style={{ width: `${rating.rate * 100}%` }} />
                  <div
                    className="interval-whisker"
                    style={{
                      left: `${(rating.low ?? 0) * 100}%`,
                      width: `${((rating.high ?? 0) - (rating.low ?? 0)) * 100}%`,
                    }}
                  />
                </>
              )}
            </div>
            <span className="interval-value">
              {rating?.rate == null ? 'no ratings' : percent(rating.rate)}
            </span>
          </div>
        );
      })}
    </figure>
  );
}

/** One experiment: per-arm runs and feedback, the rating intervals, pause, resume, declare a winner. */
export default function ExperimentPage() {
  const { guid = '' } = useParams();
  const queries = useQueryClient();
  const { name } = useActionNames();
  const results = useQuery({
    queryKey: keys.experiments.results(guid),
    queryFn: () => api('GET /v1/experiments/{guid}/results', { path: { guid } }),
  });
  const update = useMutation({
    mutationFn: (changes: Partial<Pick<Experiment, 'status' | 'split'>>) =>
      api('PUT /v1/experiments/{guid}', { path: { guid }, body: changes }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: keys.experiments.results(guid) });
      void queries.invalidateQueries({ queryKey: keys.experiments.all });
    },
  });
  if (results.isPending) return <Loading what="the experiment" />;
  if (results.isError) return <Failure what="the experiment" error={results.error} />;
  const { experiment, arms } = results.data;
  const winner = (variant: 'primary' | 'secondary') =>
    update.mutate({ status: 'completed', split: variant === 'secondary' ? 1 : 0 });
  return (
    <section aria-labelledby="experiment-title">
      <header className="page-header">
        <div>
          <h1 id="experiment-title">{experiment.name}</h1>
          <p className="muted subtitle">
            <span className={`status status-${experiment.status}`}>{experiment.status}</span> ·{' '}
            {Math.round(experiment.split * 100)}% of traffic to the secondary Action
            {experiment.status === 'paused' && ' (paused: all runs go to the primary)'}
          </p>
        </div>
        <div className="actions-row">
          {experiment.status === 'running' ? (
            <button type="button" className="secondary" onClick={() => update.mutate({ status: 'paused' })}>
              Pause
            </button>
          ) : (
            <button type="button" className="secondary" onClick={() => update.mutate({ status: 'running' })}>
              Resume
            </button>
          )}
          <button type="button" onClick={() => winner('primary')}>
            Declare primary the winner
          </button>
          <button type="button" onClick={() => winner('secondary')}>
            Declare secondary the winner
          </button>
        </div>
      </header>
      {update.isError && (
        <p className="field-error" role="alert">
          {update.error.message}
        </p>
      )}
      <div className="table-frame short">
        <table aria-label="Arms">
          <thead>
            <tr>
              <th scope="col">Arm</th>
              <th scope="col">Action</th>
              <th scope="col">Runs</th>
              <th scope="col">Feedback</th>
              <th scope="col">Positive rating</th>
              <th scope="col">95% interval</th>
            </tr>
          </thead>
          <tbody>
            {arms.map((arm) => (
              <tr key={arm.variant}>
                <td>{arm.variant}</td>
                <td>{name(arm.action)}</td>
                <td className="number">{arm.runs}</td>
                <td>
                  {Object.entries(arm.feedback)
                    .map(
                      ([type, values]) =>
                        `${type}: ${Object.entries(values)
                          .map(([value, count]) => `${value}×${count}`)
                          .join(', ')}`,
                    )
                    .join('; ') || <span className="muted">none</span>}
                </td>
                <td className="number">{percent(arm.positive_rating?.rate)}</td>
                <td className="number">
                  {arm.positive_rating?.rate == null
                    ? '—'
                    : `${percent(arm.positive_rating.low)} – ${percent(arm.positive_rating.high)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <IntervalChart arms={arms} name={name} />
    </section>
  );
}
