import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { QueryView } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useRight } from '../../../queries/me';
import { ProgressBar } from './ProgressBar';
import { QueueItems } from './QueueItems';
import { QueueRules } from './QueueRules';

const figure = (value: number | null | undefined, digits = 2) =>
  value == null ? '—' : value.toFixed(digits);

/** Who reviewed how much, by name where the workspace's members are readable. */
function Progress({ guid }: { guid: string }) {
  const progress = useQuery({
    queryKey: [...keys.reviewQueues.report(guid), 'progress'],
    queryFn: () => api('GET /v1/review_queues/{guid}/progress', { path: { guid } }),
  });
  const members = useQuery({
    queryKey: keys.members.all,
    queryFn: () => api('GET /v1/members', { query: { limit: 1000 } }),
  });
  const nameOf = (user: string) => {
    const member = members.data?.data.find((each) => each.user.guid === user);
    return member ? member.user.name || member.user.email : user;
  };
  return (
    <section aria-labelledby="review-progress">
      <h2 id="review-progress">Reviewers</h2>
      <QueryView
        query={progress}
        what="the progress"
        isEmpty={(data) => data.reviewers.length === 0}
        empty={<p className="muted">No one has reviewed or taken an item yet.</p>}
      >
        {(data) => (
          <DataTable
            label="Reviewers"
            short
            rows={data.reviewers}
            rowKey={(row) => row.user}
            columns={[
              { header: 'Reviewer', cell: (row) => nameOf(row.user) },
              { header: 'Reviews', numeric: true, cell: (row) => row.reviews },
              { header: 'Holding now', numeric: true, cell: (row) => row.leased },
            ]}
          />
        )}
      </QueryView>
    </section>
  );
}

/** Agreement per question: how often reviewers agree, beyond chance, and with the linked evaluator. */
function Agreement({ guid }: { guid: string }) {
  const agreement = useQuery({
    queryKey: [...keys.reviewQueues.report(guid), 'agreement'],
    queryFn: () => api('GET /v1/review_queues/{guid}/agreement', { path: { guid } }),
  });
  return (
    <section aria-labelledby="review-agreement">
      <h2 id="review-agreement">Agreement</h2>
      <QueryView
        query={agreement}
        what="the agreement"
        isEmpty={(data) => Object.values(data.questions).every((each) => each.items === 0)}
        empty={<p className="muted">Agreement shows once an item has two reviews.</p>}
      >
        {(data) => (
          <DataTable
            label="Agreement"
            short
            rows={Object.entries(data.questions)}
            rowKey={([key]) => key}
            columns={[
              { header: 'Question', cell: ([key]) => <code>{key}</code> },
              { header: 'Items', numeric: true, cell: ([, each]) => each.items },
              {
                header: 'Agree',
                numeric: true,
                cell: ([, each]) =>
                  each.percent_agreement == null ? '—' : `${Math.round(each.percent_agreement * 100)}%`,
              },
              { header: 'Fleiss’ κ', numeric: true, cell: ([, each]) => figure(each.kappa) },
              { header: 'Krippendorff’s α', numeric: true, cell: ([, each]) => figure(each.alpha) },
              {
                header: 'Evaluator',
                numeric: true,
                cell: ([, each]) =>
                  each.evaluator ? `${figure(each.evaluator.agreement)} (n ${each.evaluator.n})` : '—',
              },
            ]}
          />
        )}
      </QueryView>
    </section>
  );
}

/** One queue: start reviewing; for those who read the workspace, its reviewers, agreement, rules and items. */
export default function ReviewQueuePage() {
  const { guid = '' } = useParams();
  const reads = useRight('read');
  const queue = useQuery({
    queryKey: keys.reviewQueues.one(guid),
    queryFn: () => api('GET /v1/review_queues/{guid}', { path: { guid } }),
  });
  return (
    <QueryView query={queue} what="the review queue">
      {(data) => (
        <section aria-labelledby="queue-title">
          <header className="page-header">
            <h1 id="queue-title">{data.name}</h1>
            <Link className="button" to={`/review/${guid}/reviewing`}>
              Start reviewing
            </Link>
          </header>
          <p>
            <Link to="/review">All review queues</Link>
          </p>
          {data.description && <p>{data.description}</p>}
          <ProgressBar counts={data.counts} label="Items completed" />
          <p className="muted">
            {data.reviews_per_item} review{data.reviews_per_item === 1 ? '' : 's'} per item ·{' '}
            {data.blind ? 'blind' : 'reviews visible to all'} · {data.questions.length} question
            {data.questions.length === 1 ? '' : 's'}
          </p>
          {reads.allowed && (
            <>
              <Progress guid={guid} />
              <Agreement guid={guid} />
              <QueueRules guid={guid} />
              <QueueItems queue={data} />
            </>
          )}
        </section>
      )}
    </QueryView>
  );
}
