import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Field, FormError } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { NamedOptions } from '../../../components/NamedOptions';
import { QueryView } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useAllActions } from '../../../queries/lists';

/** What a rule waits for, in words. */
function describeWhen(when: {
  error?: true;
  feedback?: { type: string; value: string };
  score_below?: object;
}) {
  const parts = [
    when.error && 'failed calls',
    when.feedback && `feedback ${when.feedback.type} = ${when.feedback.value}`,
    when.score_below && 'a low score',
  ].filter(Boolean);
  return parts.length === 0 ? 'every generation' : parts.join(', ');
}

/** The rules that fill a queue in the background, and a form for one more. */
export function QueueRules({ guid }: { guid: string }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const actions = useAllActions();
  const rules = useQuery({
    queryKey: keys.reviewQueues.rules(guid),
    queryFn: () => api('GET /v1/review_queues/{guid}/rules', { path: { guid } }),
  });
  const [action, setAction] = useState('');
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [percent, setPercent] = useState(20);
  const refresh = () => void queries.invalidateQueries({ queryKey: keys.reviewQueues.rules(guid) });
  const add = useMutation({
    mutationFn: () =>
      api('POST /v1/review_queues/{guid}/rules', {
        path: { guid },
        body: {
          ...(action && { action }),
          ...(onlyFailed && { when: { error: true as const } }),
          sample_rate: percent / 100,
        },
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (rule: string) =>
      api('DELETE /v1/review_queues/{guid}/rules/{rule}', { path: { guid, rule } }),
    onSuccess: refresh,
  });
  const actionName = (id: string | null) =>
    id === null ? 'any Action' : (actions.data?.data.find((each) => each.guid === id)?.name ?? id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <section aria-labelledby="review-rules">
      <h2 id="review-rules">Rules</h2>
      <p className="muted">
        A rule adds new production generations to the queue in the background, a sampled share of those that
        match. Two rules — every failed call, and 20% of the rest — make a stratified sample.
      </p>
      <QueryView
        query={rules}
        what="the rules"
        isEmpty={(data) => data.length === 0}
        empty={<p className="muted">No rules: items are added by hand from Generations.</p>}
      >
        {(data) => (
          <DataTable
            label="Rules"
            short
            rows={data}
            columns={[
              { header: 'Action', cell: (rule) => actionName(rule.action) },
              { header: 'When', cell: (rule) => describeWhen(rule.when) },
              { header: 'Sample', numeric: true, cell: (rule) => `${Math.round(rule.sample_rate * 100)}%` },
              { header: 'Read up to', cell: (rule) => new Date(rule.scanned_until).toLocaleString() },
              {
                header: 'Remove',
                cell: (rule) => (
                  <button
                    type="button"
                    className="secondary"
                    disabled={!gate.allowed || remove.isPending}
                    onClick={() => remove.mutate(rule.guid)}
                  >
                    Remove rule
                  </button>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      {gate.allowed && (
        <form className="form-row" onSubmit={submit} aria-label="New rule">
          <Field label="Action" name="action" error={add.error}>
            <select value={action} onChange={(event) => setAction(event.target.value)}>
              <option value="">Any Action</option>
              <NamedOptions records={actions.data?.data} />
            </select>
          </Field>
          <Field label="Sample (%)" name="sample_rate" error={add.error}>
            <input
              type="number"
              min={1}
              max={100}
              value={percent}
              onChange={(event) => setPercent(Number(event.target.value))}
            />
          </Field>
          <div className="field checkbox">
            <label>
              <input
                type="checkbox"
                checked={onlyFailed}
                onChange={(event) => setOnlyFailed(event.target.checked)}
              />{' '}
              Only failed calls
            </label>
          </div>
          <button type="submit" disabled={add.isPending}>
            Add rule
          </button>
          <FormError error={add.error} fields={['action', 'sample_rate']} />
        </form>
      )}
    </section>
  );
}
