import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, type ReviewQueue } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { useGate } from '../../../components/gate';
import { Pager } from '../../../components/Pager';
import { QueryView } from '../../../components/states';
import { keys } from '../../../queries/keys';

const pageSize = 50;
const statuses = ['', 'pending', 'in_review', 'completed'] as const;

/** A queue's items by status; a completed one can be added to the queue's dataset. */
export function QueueItems({ queue }: { queue: ReviewQueue }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const [status, setStatus] = useState<(typeof statuses)[number]>('');
  const [skip, setSkip] = useState(0);
  const items = useQuery({
    queryKey: [...keys.reviewQueues.one(queue.guid), 'items', status, skip],
    queryFn: () =>
      api('GET /v1/review_queues/{guid}/items', {
        path: { guid: queue.guid },
        query: { skip, limit: pageSize, ...(status && { status }) },
      }),
  });
  const toDataset = useMutation({
    mutationFn: (item: string) =>
      api('POST /v1/review_queues/{guid}/items/{item}/to_dataset', {
        path: { guid: queue.guid, item },
        body: {},
      }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: keys.datasets.all }),
  });
  return (
    <section aria-labelledby="review-items">
      <h2 id="review-items">Items</h2>
      <div className="form-row">
        <div className="field">
          <label htmlFor="review-item-status">Status</label>
          <select
            id="review-item-status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as (typeof statuses)[number]);
              setSkip(0);
            }}
          >
            <option value="">All</option>
            <option value="pending">Pending</option>
            <option value="in_review">In review</option>
            <option value="completed">Completed</option>
          </select>
        </div>
      </div>
      <QueryView
        query={items}
        what="the items"
        isEmpty={(data) => data.total_count === 0}
        empty={<p className="muted">No items{status ? ` ${status.replace('_', ' ')}` : ''}.</p>}
      >
        {(data) => (
          <>
            <DataTable
              label="Items"
              short
              rows={data.data}
              columns={[
                {
                  header: 'Generation',
                  cell: (item) => (
                    <Link to={`/generations?open=${item.data_guid}`}>{item.data_guid.slice(0, 8)}</Link>
                  ),
                },
                { header: 'Status', cell: (item) => item.status.replace('_', ' ') },
                {
                  header: 'Reviews',
                  numeric: true,
                  cell: (item) => `${item.review_count} of ${queue.reviews_per_item}`,
                },
                {
                  header: 'Dataset',
                  cell: (item) =>
                    item.status === 'completed' && queue.dataset ? (
                      <button
                        type="button"
                        className="secondary"
                        disabled={!gate.allowed || toDataset.isPending}
                        title={gate.reason}
                        onClick={() => toDataset.mutate(item.guid)}
                      >
                        Add to dataset
                      </button>
                    ) : (
                      '—'
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
      {toDataset.isSuccess && (
        <p role="status">
          Added to <Link to={`/datasets/${toDataset.data.dataset}`}>the dataset</Link> as version{' '}
          {toDataset.data.version}.
        </p>
      )}
      {toDataset.isError && (
        <p className="field-error" role="alert">
          {toDataset.error.message}
        </p>
      )}
    </section>
  );
}
