import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, type SignedIn } from '../../api';
import { Field, FormError } from '../../components/Field';
import { ApiKeys } from './ApiKeys';
import { Providers } from './Providers';

function WorkspaceName({ workspace }: { workspace: SignedIn['workspace'] }) {
  const queries = useQueryClient();
  const [name, setName] = useState(workspace.name);
  const rename = useMutation({
    mutationFn: () => api('PUT', `/v1/workspace/${workspace.guid}`, { name }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['session'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate();
  };
  return (
    <form className="form-row" onSubmit={submit} aria-label="Workspace">
      <Field label="Workspace name" name="name" error={rename.error}>
        <input value={name} required onChange={(event) => setName(event.target.value)} />
      </Field>
      <button type="submit" disabled={rename.isPending || name === workspace.name}>
        Rename
      </button>
      <span className="muted" aria-live="polite">
        {rename.isSuccess && name === workspace.name ? 'Saved.' : ''}
      </span>
      <FormError error={rename.error} fields={['name']} />
    </form>
  );
}

/** The workspace's name, its API keys and its providers and models. */
export default function SettingsPage({ workspace }: { workspace: SignedIn['workspace'] }) {
  return (
    <section aria-labelledby="settings-title">
      <header className="page-header">
        <h1 id="settings-title">Settings</h1>
      </header>
      <WorkspaceName workspace={workspace} />
      <ApiKeys workspaceGuid={workspace.guid} />
      <Providers />
      <h2 className="section-title">Gateway</h2>
      <p>
        Interactions logged by <code>lectern gateway</code> are generations with source <code>gateway</code>:{' '}
        <Link to="/generations?source=gateway">see them in Generations</Link>.
      </p>
    </section>
  );
}
