import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { NamedOptions } from '../../../components/NamedOptions';
import { keys } from '../../../queries/keys';
import { useApps } from '../../../queries/lists';
import { emptyDraft, versionBody } from './draft';
import { VersionForm } from './VersionForm';

const newApp = '__new__';

/** Creates an Action (version 1, deployed to production) in an existing or a new App. */
export default function NewActionPage() {
  const gate = useGate('write');
  const navigate = useNavigate();
  const queries = useQueryClient();
  const apps = useApps();
  const [name, setName] = useState('');
  const [appChoice, setAppChoice] = useState('');
  const [appName, setAppName] = useState('');
  const [draft, setDraft] = useState(emptyDraft);
  const appId = appChoice || apps.data?.data[0]?.guid || newApp;

  const create = useMutation({
    mutationFn: async () => {
      const fields = versionBody(draft);
      const app = appId === newApp ? (await api('POST /v1/apps', { body: { name: appName } })).guid : appId;
      return api('POST /v1/actions/create', { body: { name, app, ...fields } });
    },
    onSuccess: (action) => {
      void queries.invalidateQueries({ queryKey: keys.actions.all });
      void queries.invalidateQueries({ queryKey: keys.apps.all });
      navigate(`/actions/${action.guid}/editor`);
    },
  });
  const submit = submitWith(create);

  return (
    <form onSubmit={submit} aria-labelledby="new-action-title" className="page-form">
      <header className="page-header">
        <h1 id="new-action-title">New Action</h1>
        <button type="submit" disabled={!gate.allowed || create.isPending} title={gate.reason}>
          {create.isPending ? 'Creating…' : 'Create Action'}
        </button>
        {gate.note}
      </header>
      <div className="form-row">
        <Field label="Name" name="name" error={create.error}>
          <input value={name} required onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label="App" name="app" error={create.error}>
          <select value={appId} onChange={(event) => setAppChoice(event.target.value)}>
            <NamedOptions records={apps.data?.data} />
            <option value={newApp}>New App…</option>
          </select>
        </Field>
        {appId === newApp && (
          <Field label="New App name" name="name" error={null}>
            <input value={appName} required onChange={(event) => setAppName(event.target.value)} />
          </Field>
        )}
      </div>
      <FormError
        error={create.error}
        fields={['name', 'app', 'model', 'model_config', 'prompt', 'messages', 'system_message', 'tools']}
      />
      <VersionForm draft={draft} onChange={setDraft} error={create.error} />
    </form>
  );
}
