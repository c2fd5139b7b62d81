import type { Evaluation } from '../../../api';

/** An evaluation's status, and while it runs a progress bar of its items. */
export function EvaluationStatus({ evaluation }: { evaluation: Evaluation }) {
  const { total, done, failed } = evaluation.progress;
  const running = evaluation.status === 'PENDING' || evaluation.status === 'RUNNING';
  return (
    <span className="evaluation-status">
      <span className={`status status-${evaluation.status.toLowerCase()}`}>{evaluation.status}</span>{' '}
      {running && (
        <progress max={total} value={done} aria-label={`${done} of ${total} items done`}>
          {done} of {total}
        </progress>
      )}{' '}
      <span className="muted">
        {done}/{total}
        {failed > 0 && `, ${failed} failed`}
      </span>
    </span>
  );
}
