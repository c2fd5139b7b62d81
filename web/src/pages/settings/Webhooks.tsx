import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type WebhookEventType, webhookEventTypes } from '../../../../src/contract';
import { api } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Drawer } from '../../components/Drawer';
import { Field, FormError, submitWith } from '../../components/Field';
import { ShownOnce } from '../../components/ShownOnce';
import { Empty, QueryView } from '../../components/states';
import { keys } from '../../queries/keys';
import { useRight } from '../../queries/me';

type Subscription = WebhookEventType | '*';

/** The events a new webhook takes: every one, or those ticked. */
function EventChoice({
  value,
  onChange,
}: {
  value: Subscription[];
  onChange: (next: Subscription[]) => void;
}) {
  const all = value.includes('*');
  const toggle = (event: Subscription, on: boolean) =>
    onChange(on ? [...value.filter((each) => each !== '*'), event] : value.filter((each) => each !== event));
  return (
    <fieldset className="choices">
      <legend>Events</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={all}
          onChange={(event) => onChange(event.target.checked ? ['*'] : [])}
        />{' '}
        All events
      </label>
      {webhookEventTypes.map((type) => (
        <label key={type} className="check">
          <input
            type="checkbox"
            disabled={all}
            checked={all || value.includes(type)}
            onChange={(event) => toggle(type, event.target.checked)}
          />{' '}
          <code>{type}</code>
        </label>
      ))}
    </fieldset>
  );
}

/** One webhook's deliveries, newest first, with redelivery. */
function Deliveries({ webhook, onClose }: { webhook: { guid: string; url: string }; onClose: () => void }) {
  const queries = useQueryClient();
  const deliveries = useQuery({
    queryKey: keys.webhooks.deliveries(webhook.guid),
    queryFn: () =>
      api('GET /v1/webhooks/{guid}/deliveries', { path: { guid: webhook.guid }, query: { limit: 50 } }),
    // Pending deliveries change on their own: look again while any is pending.
    refetchInterval: (query) =>
      query.state.data?.data.some((each) => each.status === 'pending') ? 2_000 : false,
  });
  const redeliver = useMutation({
    mutationFn: (delivery: string) =>
      api('POST /v1/webhooks/{guid}/deliveries/{delivery}/redeliver', {
        path: { guid: webhook.guid, delivery },
      }),
    onSettled: () => queries.invalidateQueries({ queryKey: keys.webhooks.deliveries(webhook.guid) }),
  });
  return (
    <Drawer title={`Deliveries to ${webhook.url}`} onClose={onClose}>
      <FormError error={redeliver.error} fields={[]} />
      <QueryView query={deliveries} what="the deliveries">
        {(data) =>
          data.data.length === 0 ? (
            <p className="muted">Nothing sent yet. Send a test event, or save or deploy an Action.</p>
          ) : (
            <DataTable
              label="Deliveries"
              short
              rows={data.data}
              columns={[
                {
                  header: 'Event',
                  cell: (delivery) => (
                    <>
                      <code>{delivery.event}</code>{' '}
                      <span className={`status status-${delivery.status}`}>{delivery.status}</span>
                    </>
                  ),
                },
                {
                  header: 'Answer',
                  cell: (delivery) => (
                    <>
                      {delivery.response_status ?? 'none'} after {delivery.attempts}{' '}
                      {delivery.attempts === 1 ? 'attempt' : 'attempts'}
                      {delivery.last_error && <p className="hint">{delivery.last_error}</p>}
                    </>
                  ),
                },
                {
                  header: 'When',
                  cell: (delivery) =>
                    delivery.next_attempt_at
                      ? `next try ${new Date(delivery.next_attempt_at).toLocaleTimeString()}`
                      : new Date(delivery.created_at).toLocaleString(),
                },
                {
                  header: <span className="visually-hidden">Redeliver</span>,
                  cell: (delivery) => (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Redeliver ${delivery.event} of ${new Date(delivery.created_at).toLocaleString()}`}
                      disabled={redeliver.isPending || delivery.status === 'pending'}
                      onClick={() => redeliver.mutate(delivery.guid)}
                    >
                      Redeliver
                    </button>
                  ),
                },
              ]}
            />
          )
        }
      </QueryView>
    </Drawer>
  );
}

/**
 * Webhooks (admins and owners): where the workspace's saves, deploys, refused deploys and finished
 * evaluations are sent, signed. A secret is shown once, when made or rotated.
 */
export function Webhooks() {
  const queries = useQueryClient();
  const manages = useRight('manage').allowed;
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Subscription[]>(['*']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<{ guid: string; url: string } | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const invalidate = () => queries.invalidateQueries({ queryKey: keys.webhooks.all });
  const webhooks = useQuery({
    queryKey: keys.webhooks.all,
    queryFn: () => api('GET /v1/webhooks', { query: { limit: 100 } }),
    enabled: manages,
  });
  const create = useMutation({
    mutationFn: () => api('POST /v1/webhooks', { body: { url, events } }),
    onSuccess: (answer) => {
      setSecret(answer.secret);
      setUrl('');
      void invalidate();
    },
  });
  const change = useMutation({
    mutationFn: ({ guid, enabled }: { guid: string; enabled: boolean }) =>
      api('PUT /v1/webhooks/{guid}', { path: { guid }, body: { enabled } }),
    onSettled: invalidate,
  });
  const rotate = useMutation({
    mutationFn: (guid: string) => api('POST /v1/webhooks/{guid}/rotate_secret', { path: { guid } }),
    onSuccess: (answer) => setSecret(answer.secret),
  });
  const test = useMutation({
    mutationFn: (guid: string) => api('POST /v1/webhooks/{guid}/test', { path: { guid } }),
    onSuccess: (_answer, guid) => {
      setTested(guid);
      void queries.invalidateQueries({ queryKey: keys.webhooks.deliveries(guid) });
    },
  });
  const remove = useMutation({
    mutationFn: (guid: string) => api('DELETE /v1/webhooks/{guid}', { path: { guid } }),
    onSettled: invalidate,
  });
  const submit = submitWith(create);
  if (!manages) return null;
  const actionError = change.error ?? rotate.error ?? test.error ?? remove.error;
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title" className="section-title">
        Webhooks
      </h2>
      <p className="muted">
        Each event is a signed <code>POST</code> (Standard Webhooks), sent in order and retried for 24 hours.
      </p>
      <form onSubmit={submit} aria-label="New webhook">
        <Field
          label="Receiver URL"
          name="url"
          error={create.error}
          hint="https, public; no credentials in it"
        >
          <input
            type="url"
            value={url}
            required
            placeholder="https://ci.example.com/lectern"
            onChange={(event) => setUrl(event.target.value)}
          />
        </Field>
        <EventChoice value={events} onChange={setEvents} />
        <div className="toolbar start">
          <button type="submit" disabled={create.isPending || events.length === 0}>
            Add webhook
          </button>
        </div>
        <FormError error={create.error} fields={['url']} />
      </form>
      {secret && (
        <ShownOnce value={secret} copy onDone={() => setSecret(null)}>
          Copy the signing secret now: it is not shown again. Receivers check each delivery's signature with
          it.
        </ShownOnce>
      )}
      {actionError && (
        <p className="field-error" role="alert">
          {actionError.message}
        </p>
      )}
      <QueryView query={webhooks} what="the webhooks">
        {(data) =>
          data.data.length === 0 ? (
            <Empty title="No webhooks yet">
              <p>
                Add one to hear of saves, deploys and evaluations: a CI job, a chat message, a cache purge.
              </p>
            </Empty>
          ) : (
            <DataTable
              label="Webhooks"
              short
              rows={data.data}
              columns={[
                { header: 'URL', cell: (webhook) => <code>{webhook.url}</code> },
                { header: 'Events', cell: (webhook) => webhook.events.join(', ') },
                {
                  header: 'Enabled',
                  cell: (webhook) => (
                    <input
                      type="checkbox"
                      aria-label={`Enabled: ${webhook.url}`}
                      checked={webhook.enabled}
                      onChange={(event) =>
                        change.mutate({ guid: webhook.guid, enabled: event.target.checked })
                      }
                    />
                  ),
                },
                {
                  header: <span className="visually-hidden">Actions</span>,
                  cell: (webhook) => (
                    <div className="toolbar start">
                      <button type="button" className="secondary" onClick={() => test.mutate(webhook.guid)}>
                        Send test event
                      </button>
                      <button type="button" className="secondary" onClick={() => setOpen(webhook)}>
                        Deliveries
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => {
                          if (window.confirm('Rotate the secret? Receivers must be given the new one.'))
                            rotate.mutate(webhook.guid);
                        }}
                      >
                        Rotate secret
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Delete webhook ${webhook.url}`}
                        onClick={() => {
                          if (window.confirm(`Delete the webhook to ${webhook.url}?`))
                            remove.mutate(webhook.guid);
                        }}
                      >
                        Delete
                      </button>
                      {tested === webhook.guid && (
                        <span className="muted" aria-live="polite">
                          Test event queued.
                        </span>
                      )}
                    </div>
                  ),
                },
              ]}
            />
          )
        }
      </QueryView>
      {open && <Deliveries webhook={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
