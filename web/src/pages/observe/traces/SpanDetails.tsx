import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api, type Span, versionLabel } from '../../../api';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { durationLabel, StatusBadge } from './trace-parts';

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** An attribute's value to read: JSON text (messages, tool calls) indented, anything else as it is. */
function readable(value: unknown): string {
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return asText(value);
}

/** A model-call span's generation: its messages as a chat, and links to it and its prompt version. */
function GenerationChat({ guid }: { guid: string }) {
  const generation = useQuery({
    queryKey: keys.generations.one(guid),
    queryFn: () => api('GET /v1/data/{guid}', { path: { guid } }),
  });
  const { name } = useActionNames();
  if (generation.isPending) return <Loading what="the generation" />;
  if (generation.isError) return <Failure what="the generation" error={generation.error} />;
  const record = generation.data;
  return (
    <>
      <h3>Model call</h3>
      <p>
        <Link to={`/generations?open=${record.guid}`}>Open the generation</Link>
        {record.action && (
          <>
            {' · '}
            <Link to={`/actions/${record.action}`}>
              {name(record.action)} {versionLabel(record)}
            </Link>
          </>
        )}
        {' · '}
        <code>{[record.model_provider, record.model].filter(Boolean).join('/')}</code>
        {record.cost && ` · $${record.cost.generation.toFixed(6)}`}
      </p>
      <ol className="conversation" aria-label="Messages">
        {(record.full_prompt_sent ?? []).map((message, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a prompt's messages are fixed and ordered
          <li key={index}>
            <div className={`bubble ${message.role === 'user' ? 'user' : 'assistant'}`}>
              <span className="role">{message.role}</span>
              <p>{asText(message.content)}</p>
            </div>
          </li>
        ))}
        <li>
          <div className="bubble assistant">
            <span className="role">answer</span>
            <p>{record.output || <span className="muted">(no text recorded)</span>}</p>
          </div>
        </li>
      </ol>
    </>
  );
}

/** The chosen span: its facts, attributes and events, and its generation when it is a model call. */
export function SpanDetails({ span }: { span: Span }) {
  const attributes = Object.entries(span.attributes).sort(([left], [right]) => left.localeCompare(right));
  return (
    <section className="span-details" aria-labelledby="span-title">
      <h2 id="span-title" className="span-title">
        {span.name}
      </h2>
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{span.kind}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={span.status} /> {span.status_message}
        </dd>
        <dt>Duration</dt>
        <dd>{durationLabel(span.duration_ms)}</dd>
        <dt>Service</dt>
        <dd>{span.service_name ?? '—'}</dd>
        <dt>Span</dt>
        <dd>
          <code>{span.span_id}</code>
        </dd>
      </dl>
      {span.data_guid && <GenerationChat guid={span.data_guid} />}
      <h3>Attributes</h3>
      {attributes.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <dl className="attribute-list" aria-label="Attributes">
          {attributes.map(([key, value]) => (
            <div key={key}>
              <dt>
                <code>{key}</code>
              </dt>
              <dd>
                <pre>{readable(value)}</pre>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {span.events.length > 0 && (
        <>
          <h3>Events</h3>
          <ol className="hits">
            {span.events.map((event, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a span's events are fixed and ordered
              <li key={index}>
                <strong>{event.name}</strong>{' '}
                <time className="muted" dateTime={event.time}>
                  {new Date(event.time).toLocaleTimeString()}
                </time>
                {Object.keys(event.attributes).length > 0 && <pre>{asText(event.attributes)}</pre>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
