import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type ApiKey, api, type ListEnvelope, type NewApiKey } from '../../api';
import { DataTable } from '../../components/DataTable';
import { QueryView } from '../../components/states';
import { keys } from '../../queries/keys';

/** The workspace's API keys: a new one is shown once; revoking ends its console sessions too. */
export function ApiKeys({ workspaceGuid }: { workspaceGuid: string }) {
  const queries = useQueryClient();
  const path = `/v1/workspace/${workspaceGuid}/api_keys`;
  const [created, setCreated] = useState<string | null>(null);
  const apiKeys = useQuery({
    queryKey: keys.apiKeys.all,
    queryFn: () => api<ListEnvelope<ApiKey>>('GET', path),
  });
  const create = useMutation({
    mutationFn: () => api<NewApiKey>('POST', path),
    onSuccess: (answer) => {
      setCreated(answer.api_key);
      void queries.invalidateQueries({ queryKey: keys.apiKeys.all });
    },
  });
  const revoke = useMutation({
    mutationFn: (guid: string) => api('DELETE', `${path}/${guid}`),
    onSettled: () => queries.invalidateQueries({ queryKey: keys.apiKeys.all }),
  });
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title" className="section-title">
        API keys
      </h2>
      <div className="toolbar start">
        <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>
          Create API key
        </button>
      </div>
      {created && (
        <div className="callout" role="status">
          <p>Copy the new key now: it is not shown again.</p>
          <code className="secret">{created}</code>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => void navigator.clipboard?.writeText(created)}
          >
            Copy
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {(create.error ?? revoke.error) && (
        <p className="field-error" role="alert">
          {(create.error ?? revoke.error)!.message}
        </p>
      )}
      <QueryView query={apiKeys} what="the keys">
        {(data) => (
          <DataTable
            label="API keys"
            short
            rows={data.data}
            rowKey={(key) => key.guid}
            columns={[
              { header: 'Key', cell: (key) => <code>{key.prefix}…</code> },
              { header: 'Created', cell: (key) => new Date(key.created_at).toLocaleString() },
              {
                header: 'State',
                cell: (key) =>
                  key.revoked_at ? `revoked ${new Date(key.revoked_at).toLocaleString()}` : 'active',
              },
              {
                header: <span className="visually-hidden">Revoke</span>,
                cell: (key) =>
                  !key.revoked_at && (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Revoke ${key.prefix}`}
                      onClick={() => {
                        if (window.confirm(`Revoke ${key.prefix}…? Programs using it stop working at once.`))
                          revoke.mutate(key.guid);
                      }}
                    >
                      Revoke
                    </button>
                  ),
              },
            ]}
          />
        )}
      </QueryView>
    </section>
  );
}
