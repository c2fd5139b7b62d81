import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { keys } from '../../../queries/keys';
import { useAllActions, useAllDatasets, useAllEvaluators } from '../../../queries/lists';

/** The fields whose errors show beside them; any other error shows under the form. */
const fieldsShown = ['action', 'dataset', 'concurrency'];

/**
 * Starts evaluations: an Action's versions (one, or several for a matrix) over a dataset, scored by
 * the chosen evaluators. The URL may preset the Action, version and dataset (the deploy dialog's
 * "Evaluate this version now", a dataset's "Evaluate").
 */
export function StartEvaluation() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const gate = useGate('write');
  const actions = useAllActions();
  const datasets = useAllDatasets();
  const evaluators = useAllEvaluators();
  const [action, setAction] = useState(params.get('action') ?? '');
  const [versions, setVersions] = useState<number[]>(
    params.get('version') ? [Number(params.get('version'))] : [],
  );
  const [dataset, setDataset] = useState(params.get('dataset') ?? '');
  const [chosen, setChosen] = useState<string[]>(params.getAll('evaluator'));
  const [concurrency, setConcurrency] = useState('4');
  const actionVersions = useQuery({
    queryKey: keys.actions.versions(action),
    queryFn: () => api('GET /v1/actions/{guid}/versions', { path: { guid: action }, query: { limit: 1000 } }),
    enabled: action !== '',
  });
  const start = useMutation({
    mutationFn: async () => {
      const shared = { action, dataset, evaluators: chosen, concurrency: Number(concurrency) };
      if (versions.length > 1)
        return (await api('POST /v1/evaluations/matrix', { body: { ...shared, versions } })).data;
      return [await api('POST /v1/evaluations', { body: { ...shared, version: versions[0] } })];
    },
    onSuccess: (started) => {
      void queries.invalidateQueries({ queryKey: keys.evaluations.all });
      // One run opens its page; a matrix opens the comparison of its first two.
      if (started.length === 1) navigate(`/evaluations/${started[0]!.guid}`);
      else navigate(`/evaluations/compare?base=${started[0]!.guid}&candidate=${started[1]!.guid}`);
    },
  });
  const toggle = <Value,>(list: Value[], value: Value) =>
    list.includes(value) ? list.filter((each) => each !== value) : [...list, value];
  const submit = submitWith(start);
  return (
    <form className="panel" onSubmit={submit} aria-label="Start an evaluation">
      <h2 className="section-title">Start an evaluation</h2>
      <div className="form-row wrap">
        <Field label="Action" name="action" error={start.error}>
          <select
            required
            value={action}
            onChange={(event) => {
              setAction(event.target.value);
              setVersions([]);
            }}
          >
            <option value="">Choose an Action</option>
            {actions.data?.data.map((each) => (
              <option key={each.guid} value={each.guid}>
                {each.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Dataset" name="dataset" error={start.error}>
          <select required value={dataset} onChange={(event) => setDataset(event.target.value)}>
            <option value="">Choose a dataset</option>
            {datasets.data?.data.map((each) => (
              <option key={each.guid} value={each.guid}>
                {each.name} (v{each.version}, {each.item_count} items)
              </option>
            ))}
          </select>
        </Field>
        <Field label="Concurrency" name="concurrency" error={start.error} hint="Items run at once, 1 to 32">
          <input
            type="number"
            min={1}
            max={32}
            value={concurrency}
            onChange={(event) => setConcurrency(event.target.value)}
          />
        </Field>
      </div>
      <fieldset className="choices">
        <legend>Versions (none: the default environment’s; two or more: a matrix)</legend>
        {actionVersions.data?.data.map((each) => (
          <label key={each.version}>
            <input
              type="checkbox"
              checked={versions.includes(each.version)}
              onChange={() => setVersions(toggle(versions, each.version))}
            />{' '}
            v{each.version} <code>{each.model}</code>
          </label>
        )) ?? <span className="muted">Choose an Action to list its versions.</span>}
      </fieldset>
      <fieldset className="choices">
        <legend>Evaluators</legend>
        {evaluators.data?.data.length === 0 && <span className="muted">Create an evaluator first.</span>}
        {evaluators.data?.data.map((each) => (
          <label key={each.guid}>
            <input
              type="checkbox"
              checked={chosen.includes(each.guid)}
              onChange={() => setChosen(toggle(chosen, each.guid))}
            />{' '}
            {each.name} <span className="muted">({each.type})</span>
          </label>
        ))}
      </fieldset>
      <FormError error={start.error} fields={fieldsShown} />
      <button type="submit" disabled={!gate.allowed || start.isPending} title={gate.reason}>
        {start.isPending
          ? 'Starting…'
          : versions.length > 1
            ? `Evaluate ${versions.length} versions`
            : 'Evaluate'}
      </button>
      {gate.note}
    </form>
  );
}
