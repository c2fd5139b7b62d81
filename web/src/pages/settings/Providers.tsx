import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Body, type Provider } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Field, FormError, submitWith } from '../../components/Field';
import { QueryView } from '../../components/states';
import { keys } from '../../queries/keys';
import { useModels, useProviders } from '../../queries/lists';
import { useRight } from '../../queries/me';
import { useProviderKinds } from '../../queries/providers';

function AddProvider() {
  const queries = useQueryClient();
  const kinds = useProviderKinds();
  const [chosenKind, setKind] = useState('');
  const kind = chosenKind || kinds.data?.data[0]?.name || '';
  const spec = kinds.data?.data.find((each) => each.name === kind);
  const [key, setKey] = useState('');
  const [url, setUrl] = useState('');
  const [nickname, setNickname] = useState('');
  const add = useMutation({
    mutationFn: () =>
      api('POST /v1/providers', {
        body: {
          // The kinds offered are the service's own list (GET /v1/providers/kinds).
          provider: kind as Body<'POST /v1/providers'>['provider'],
          ...(key && { key }),
          ...(url && { url }),
          ...(nickname && { nickname }),
        },
      }),
    onSuccess: () => {
      // The key leaves the page once it is saved: it is write-only.
      setKey('');
      setUrl('');
      setNickname('');
      void queries.invalidateQueries({ queryKey: keys.providers.all });
    },
  });
  const submit = submitWith(add);
  return (
    <form className="form-row" onSubmit={submit} aria-label="Add a provider">
      <Field label="Provider" name="provider" error={add.error}>
        <select value={kind} onChange={(event) => setKind(event.target.value)} disabled={!kinds.data}>
          {(kinds.data?.data ?? []).map((each) => (
            <option key={each.name} value={each.name}>
              {each.label}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label="API key"
        name="key"
        error={add.error}
        hint={`${spec && !spec.key_required ? 'Optional. ' : ''}Stored encrypted; never shown again`}
      >
        <input
          type="password"
          autoComplete="off"
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
      </Field>
      <Field
        label="Base URL"
        name="url"
        error={add.error}
        hint={
          spec?.url_required
            ? 'Required'
            : `Optional${spec?.default_url ? `; default ${spec.default_url}` : ''}`
        }
      >
        <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} />
      </Field>
      <Field label="Nickname" name="nickname" error={add.error}>
        <input value={nickname} onChange={(event) => setNickname(event.target.value)} />
      </Field>
      <button type="submit" disabled={add.isPending}>
        Add provider
      </button>
      <FormError error={add.error} fields={['provider', 'key', 'url', 'nickname']} />
    </form>
  );
}

/** "Test connection": asks the provider for its model list with its stored key; says what came back. */
function TestConnection({ provider }: { provider: Provider }) {
  const test = useMutation({
    mutationFn: () => api('POST /v1/providers/{guid}/test', { path: { guid: provider.guid } }),
  });
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-label={`Test connection of ${provider.nickname ?? provider.provider}`}
        disabled={test.isPending}
        onClick={() => test.mutate()}
      >
        {test.isPending ? 'Testing…' : 'Test connection'}
      </button>
      <span role="status" className={test.data?.ok === false || test.isError ? 'field-error' : 'muted'}>
        {test.data
          ? ` ${test.data.ok ? '✓' : '✗'} ${test.data.message}`
          : test.isError
            ? ` ${test.error.message}`
            : ''}
      </span>
    </>
  );
}

/** A model record of one of the workspace's providers: Actions may then name it `provider/model`. */
function AddModel({ providers }: { providers: Provider[] }) {
  const queries = useQueryClient();
  const [provider, setProvider] = useState('');
  const [name, setName] = useState('');
  const [makeDefault, setMakeDefault] = useState(false);
  const chosen = provider || providers[0]?.guid || '';
  const add = useMutation({
    mutationFn: () => api('POST /v1/models', { body: { provider: chosen, name, default: makeDefault } }),
    onSuccess: () => {
      setName('');
      void queries.invalidateQueries({ queryKey: keys.models.all });
    },
  });
  const submit = submitWith(add);
  if (providers.length === 0) return null;
  return (
    <form className="form-row" onSubmit={submit} aria-label="Add a model">
      <Field label="Model provider" name="provider" error={add.error}>
        <select value={chosen} onChange={(event) => setProvider(event.target.value)}>
          {providers.map((each) => (
            <option key={each.guid} value={each.guid}>
              {each.nickname ?? each.provider}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Model name" name="name" error={add.error} hint="e.g. gpt-4o-mini">
        <input value={name} required onChange={(event) => setName(event.target.value)} />
      </Field>
      <label className="check">
        <input
          type="checkbox"
          checked={makeDefault}
          onChange={(event) => setMakeDefault(event.target.checked)}
        />
        Workspace default
      </label>
      <button type="submit" disabled={add.isPending}>
        Add model
      </button>
      <FormError error={add.error} fields={['provider', 'name']} />
    </form>
  );
}

/** Provider records (keys write-only, shown masked) and the model records made from them. */
export function Providers() {
  const queries = useQueryClient();
  const manages = useRight('manage').allowed;
  const providers = useProviders();
  const models = useModels();
  const remove = useMutation({
    mutationFn: (guid: string) => api('DELETE /v1/providers/{guid}', { path: { guid } }),
    onSettled: () => {
      void queries.invalidateQueries({ queryKey: keys.providers.all });
      void queries.invalidateQueries({ queryKey: keys.models.all });
    },
  });
  return (
    <section aria-labelledby="providers-title">
      <h2 id="providers-title" className="section-title">
        Providers
      </h2>
      {manages ? (
        <AddProvider />
      ) : (
        <p className="muted">Only an admin adds, tests and removes providers and models.</p>
      )}
      {remove.isError && (
        <p className="field-error" role="alert">
          {remove.error.message}
        </p>
      )}
      <QueryView
        query={providers}
        what="the providers"
        isEmpty={(data) => data.data.length === 0}
        empty={
          <p className="muted">
            No provider records: runs use mock models, or the operator's keys from the environment when
            shared.
          </p>
        }
      >
        {(data) => (
          <DataTable
            label="Providers"
            short
            rows={data.data}
            columns={[
              {
                header: 'Provider',
                cell: (provider) => (
                  <>
                    {provider.provider}
                    {provider.default && <span className="badge">default</span>}
                  </>
                ),
              },
              {
                header: 'Nickname',
                cell: (provider) => provider.nickname ?? <span className="muted">—</span>,
              },
              {
                header: 'Key',
                cell: (provider) =>
                  provider.has_key ? <code>••••••••</code> : <span className="muted">none</span>,
              },
              {
                header: 'URL',
                cell: (provider) => provider.url ?? <span className="muted">vendor default</span>,
              },
              {
                header: 'Connection',
                cell: (provider) => (manages ? <TestConnection provider={provider} /> : '—'),
              },
              {
                header: <span className="visually-hidden">Remove</span>,
                cell: (provider) => (
                  <button
                    disabled={!manages}
                    title={manages ? undefined : 'Only an admin removes a provider'}
                    type="button"
                    className="secondary"
                    aria-label={`Remove ${provider.nickname ?? provider.provider}`}
                    onClick={() => {
                      if (window.confirm('Remove this provider and its key?')) remove.mutate(provider.guid);
                    }}
                  >
                    Remove
                  </button>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <h3 className="section-title">Models</h3>
      {manages && <AddModel providers={providers.data?.data ?? []} />}
      <QueryView
        query={models}
        what="the models"
        isEmpty={(data) => data.length === 0}
        empty={<p className="muted">No model records. An Action may name any model as provider/model.</p>}
      >
        {(data) => (
          <ul className="chips">
            {data.map((model) => (
              <li key={model.guid}>
                <code>{model.reference}</code>
                {model.default && ' (default)'}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
