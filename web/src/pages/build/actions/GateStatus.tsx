import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type Action, api, type GateCheck } from '../../../api';
import { useGate } from '../../../components/gate';
import { keys } from '../../../queries/keys';
import { useAllEvaluators } from '../../../queries/lists';

type Condition = GateCheck['conditions'][number];

const environmentPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** What a condition asks, in words, with a link to the evidence it read. */
function ConditionText({ condition, check }: { condition: Condition; check: GateCheck }) {
  const evaluators = useAllEvaluators();
  const name = (guid: string | undefined) =>
    evaluators.data?.data.find((each) => each.guid === guid)?.name ?? guid ?? '';
  const evidence = condition.evaluation && (
    <Link to={`/evaluations/${condition.evaluation}`}>the evaluation</Link>
  );
  switch (condition.condition) {
    case 'evaluation_missing': {
      if (condition.met)
        return (
          <>
            A successful evaluation of v{check.version}: {evidence}
          </>
        );
      const required = condition.required as {
        dataset: string;
        dataset_version: number | null;
        evaluators: string[];
      };
      const query = new URLSearchParams({
        action: check.action,
        version: String(check.version),
        dataset: required.dataset,
      });
      for (const evaluator of required.evaluators) query.append('evaluator', evaluator);
      return (
        <>
          No successful evaluation of v{check.version} on the dataset’s current version (v
          {required.dataset_version ?? '?'}) with the gate’s evaluators.{' '}
          <Link to={`/evaluations?${query}`}>Evaluate this version now</Link>
        </>
      );
    }
    case 'min_mean':
      return (
        <>
          {name(condition.evaluator)}: mean {String(condition.actual ?? '—')}, needs at least{' '}
          {String(condition.required)} ({evidence})
        </>
      );
    case 'max_regressions':
      return (
        <>
          {condition.actual === null
            ? 'No successful evaluation of the deployed version on the same items to count regressions against'
            : `${String(condition.actual)} items worse than the deployed version`}
          , at most {String(condition.required)} allowed
          {condition.evaluation && (
            <>
              {' '}
              (<Link to={`/evaluations/${condition.evaluation}`}>the deployed version’s evaluation</Link>)
            </>
          )}
        </>
      );
    case 'approvals':
      return (
        <>
          {String(condition.actual)} of {String(condition.required)} approvals by admins or owners other than
          the version’s author
        </>
      );
  }
}

/**
 * The release gate of a deploy target, checked by the service as a deploy would: each condition met
 * or not, with its evidence, "Evaluate this version now", and an admin's approval.
 */
export function GateStatus({
  action,
  version,
  environment,
}: {
  action: Action;
  version: number;
  environment: string;
}) {
  const queries = useQueryClient();
  const manage = useGate('manage');
  const valid = environmentPattern.test(environment);
  const check = useQuery({
    queryKey: keys.gates.check(action.guid, environment, version),
    queryFn: () =>
      api('GET /v1/actions/{guid}/gates/{environment}/check', {
        path: { guid: action.guid, environment },
        query: { version },
      }),
    enabled: valid,
  });
  const approve = useMutation({
    mutationFn: () =>
      api('POST /v1/actions/{guid}/versions/{version}/approvals', { path: { guid: action.guid, version } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: keys.gates.all }),
  });
  if (!valid || check.isPending) return null;
  if (check.isError) return <p className="muted">Could not check the release gate: {check.error.message}</p>;
  if (!check.data.gated) return <p className="muted">No release gate on {environment}.</p>;
  const needsApproval = check.data.conditions.some((each) => each.condition === 'approvals' && !each.met);
  return (
    <div className="gate" aria-live="polite">
      <p>
        <strong>Release gate on {environment}:</strong> {check.data.passed ? 'met' : 'not met'}
      </p>
      <ul className="gate-conditions" aria-label="Release gate conditions">
        {check.data.conditions.map((condition) => (
          <li
            key={`${condition.condition}-${condition.evaluator ?? ''}`}
            className={condition.met ? 'met' : 'unmet'}
          >
            <span aria-hidden="true">{condition.met ? '✓' : '✗'}</span>
            <span className="visually-hidden">{condition.met ? 'Met: ' : 'Not met: '}</span>{' '}
            <ConditionText condition={condition} check={check.data} />
          </li>
        ))}
      </ul>
      {needsApproval && manage.allowed && (
        <button
          type="button"
          className="secondary"
          disabled={approve.isPending}
          onClick={() => approve.mutate()}
        >
          Approve v{version}
        </button>
      )}
      {approve.error && (
        <p className="field-error" role="alert">
          {approve.error.message}
        </p>
      )}
    </div>
  );
}
