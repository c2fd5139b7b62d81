import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, versionLabel } from '../../../api';
import { Drawer } from '../../../components/Drawer';
import { Field, FormError, submitWith } from '../../../components/Field';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { AddToReviewQueue } from './AddToReviewQueue';

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function FeedbackForm({ dataGuid }: { dataGuid: string }) {
  const queries = useQueryClient();
  const [type, setType] = useState('rating');
  const [value, setValue] = useState('');
  const add = useMutation({
    mutationFn: () =>
      api('POST /v1/feedback/{dataGuid}', { path: { dataGuid }, body: { type, value, source: 'console' } }),
    onSuccess: () => {
      setValue('');
      void queries.invalidateQueries({ queryKey: keys.generations.one(dataGuid) });
      void queries.invalidateQueries({ queryKey: keys.statistics.all });
      void queries.invalidateQueries({ queryKey: keys.generations.all });
    },
  });
  const submit = submitWith(add);
  return (
    <form onSubmit={submit} className="feedback-form" aria-label="Add feedback">
      <Field label="Type" name="type" error={add.error}>
        <select value={type} onChange={(event) => setType(event.target.value)}>
          <option value="rating">rating</option>
          <option value="correction">correction</option>
          <option value="issue">issue</option>
          <option value="action">action</option>
        </select>
      </Field>
      <Field
        label="Value"
        name="value"
        error={add.error}
        hint={type === 'rating' ? 'Klu’s scale: 2 (good) or 1 (bad); or positive / negative' : undefined}
      >
        <input value={value} required onChange={(event) => setValue(event.target.value)} />
      </Field>
      <button type="submit" disabled={add.isPending}>
        {add.isPending ? 'Adding…' : 'Add feedback'}
      </button>
      <FormError error={add.error} fields={['type', 'value']} />
    </form>
  );
}

/** One generation: what was asked, the prompt sent, the answer, its figures and its feedback. */
export function GenerationDrawer({
  guid,
  actionName,
  onClose,
}: {
  guid: string;
  actionName: (guid: string | null) => string;
  onClose: () => void;
}) {
  const record = useQuery({
    queryKey: keys.generations.one(guid),
    queryFn: () => api('GET /v1/data/{guid}', { path: { guid } }),
  });
  return (
    <Drawer title="Generation" onClose={onClose}>
      {record.isPending ? (
        <Loading what="the generation" />
      ) : record.isError ? (
        <Failure what="the generation" error={record.error} />
      ) : (
        <>
          <dl className="facts">
            <dt>Action</dt>
            <dd>{actionName(record.data.action)}</dd>
            <dt>Version</dt>
            <dd>
              {versionLabel(record.data)} {record.data.environment && `in ${record.data.environment}`}
            </dd>
            <dt>Model</dt>
            <dd>
              <code>{[record.data.model_provider, record.data.model].filter(Boolean).join('/')}</code>
            </dd>
            <dt>Tokens</dt>
            <dd>
              {record.data.num_input_tokens ?? '—'} in · {record.data.num_output_tokens ?? '—'} out
            </dd>
            <dt>Latency</dt>
            <dd>{record.data.latency_ms == null ? '—' : `${record.data.latency_ms} ms`}</dd>
            <dt>Cost</dt>
            <dd>
              {record.data.cost?.generation === undefined
                ? '—'
                : `$${record.data.cost.generation.toFixed(6)}`}
            </dd>
            <dt>Source</dt>
            <dd>{record.data.source ?? '—'}</dd>
            <dt>Session</dt>
            <dd>{record.data.session ?? '—'}</dd>
            <dt>Trace</dt>
            <dd>
              {record.data.trace_id ? (
                <Link to={`/traces/${record.data.trace_id}`}>Open the trace</Link>
              ) : (
                '—'
              )}
            </dd>
            <dt>Created</dt>
            <dd>{new Date(record.data.created_at).toLocaleString()}</dd>
            <dt>GUID</dt>
            <dd>
              <code>{record.data.guid}</code>
            </dd>
          </dl>
          <h3>Input</h3>
          <pre className="block">{asText(record.data.input)}</pre>
          {record.data.full_prompt_sent && (
            <>
              <h3>Prompt sent</h3>
              {record.data.full_prompt_sent.map((message, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the messages of one stored prompt
                <div key={index} className="sent-message">
                  <span className="role">{message.role}</span>
                  <pre>{asText(message.content)}</pre>
                </div>
              ))}
            </>
          )}
          <h3>Output</h3>
          <pre className="block">{record.data.output}</pre>
          <h3>Feedback</h3>
          {record.data.feedback?.length ? (
            <ul className="feedback-list">
              {record.data.feedback.map((feedback) => (
                <li key={feedback.guid}>
                  <strong>{feedback.type}</strong>: {asText(feedback.value)}{' '}
                  <span className="muted">
                    {feedback.source ? `from ${feedback.source}, ` : ''}
                    {new Date(feedback.created_at).toLocaleString()}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No feedback yet.</p>
          )}
          <FeedbackForm dataGuid={guid} />
          <AddToReviewQueue selected={[guid]} what="this generation" />
        </>
      )}
    </Drawer>
  );
}
