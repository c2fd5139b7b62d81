import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../../api';
import { Field, FormError } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { NamedOptions } from '../../../components/NamedOptions';
import { keys } from '../../../queries/keys';
import { useAllReviewQueues } from '../../../queries/lists';

/**
 * Adds generations to a review queue: the selection of the Generations list, the generation a drawer
 * shows, or a trace's. One already in the queue is not added again.
 */
export function AddToReviewQueue({
  selected,
  onAdded,
  what = 'selected',
}: {
  selected: string[];
  onAdded?: () => void;
  /** How the button names the generations: "selected", "this generation", "the trace’s". */
  what?: string;
}) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const reviewQueues = useAllReviewQueues({ enabled: gate.allowed });
  const [queue, setQueue] = useState('');
  const add = useMutation({
    mutationFn: (target: string) =>
      api('POST /v1/review_queues/{guid}/items', { path: { guid: target }, body: { data: selected } }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: keys.reviewQueues.all });
      onAdded?.();
    },
  });
  const list = reviewQueues.data?.data ?? [];
  const chosen = queue || list[0]?.guid || '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) add.mutate(chosen);
  };
  if (!gate.allowed) return null;
  const name = list.find((each) => each.guid === add.variables)?.name;
  return (
    <form className="form-row" onSubmit={submit} aria-label="Add to review queue">
      <Field label="Review queue" name="data" error={add.error}>
        <select
          value={chosen}
          onChange={(event) => setQueue(event.target.value)}
          disabled={list.length === 0}
        >
          {list.length === 0 && <option value="">No review queues yet</option>}
          <NamedOptions records={list} />
        </select>
      </Field>
      <button
        type="submit"
        disabled={selected.length === 0 || !chosen || add.isPending}
        title={selected.length === 0 ? 'Select generations in the table first' : undefined}
      >
        Add {what === 'selected' ? `${selected.length || ''} selected` : what} to review queue
      </button>
      {list.length === 0 && reviewQueues.isSuccess && (
        <p className="muted">
          <Link to="/review">Create a review queue</Link> first.
        </p>
      )}
      {add.isSuccess && (
        <p role="status">
          Added {add.data.added} to <Link to={`/review/${add.variables}`}>{name}</Link>
          {add.data.added < selected.length ? ' (the others were in it already)' : ''}.
        </p>
      )}
      <FormError error={add.error} fields={['data']} />
    </form>
  );
}
