import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, forgetSignIn, type SignedIn } from '../../api';
import { Field, FormError, submitWith } from '../../components/Field';
import { keys } from '../../queries/keys';
import { useRight } from '../../queries/me';
import { ApiKeys } from './ApiKeys';
import { AuditLog } from './AuditLog';
import { Members } from './Members';
import { Profile } from './Profile';
import { Providers } from './Providers';
import { Webhooks } from './Webhooks';

function WorkspaceName({ workspace }: { workspace: SignedIn['workspace'] }) {
  const queries = useQueryClient();
  const manages = useRight('manage').allowed;
  const [name, setName] = useState(workspace.name);
  const rename = useMutation({
    mutationFn: () => api('PUT /v1/workspace/{guid}', { path: { guid: workspace.guid }, body: { name } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: keys.session }),
  });
  const submit = submitWith(rename);
  return (
    <form className="form-row" onSubmit={submit} aria-label="Workspace">
      <Field
        label="Workspace name"
        name="name"
        error={rename.error}
        hint={manages ? undefined : 'Only an admin renames the workspace.'}
      >
        <input value={name} required readOnly={!manages} onChange={(event) => setName(event.target.value)} />
      </Field>
      <button type="submit" disabled={!manages || rename.isPending || name === workspace.name}>
        Rename
      </button>
      <span className="muted" aria-live="polite">
        {rename.isSuccess && name === workspace.name ? 'Saved.' : ''}
      </span>
      <FormError error={rename.error} fields={['name']} />
    </form>
  );
}

/** Ends every console sign-in made with the same API key as this one (this browser's too). */
function SignOutEverywhere() {
  const queries = useQueryClient();
  const everywhere = useMutation({
    mutationFn: () => api('DELETE /console/v1/sessions'),
    onSuccess: () => forgetSignIn(queries),
  });
  return (
    <section aria-labelledby="sign-ins-title">
      <h2 id="sign-ins-title" className="section-title">
        Console sign-ins
      </h2>
      <p id="sign-out-everywhere-help">
        Signs out every browser that signed in with the same API key as this one, this one included: use it
        when a laptop is lost or a key was shared.
      </p>
      <div className="toolbar start">
        <button
          type="button"
          className="secondary"
          aria-describedby="sign-out-everywhere-help"
          onClick={() => {
            // Like revoking a key: it ends other people's work too, so it is confirmed first.
            if (window.confirm('Sign out every browser signed in with this API key, this one too?'))
              everywhere.mutate();
          }}
          disabled={everywhere.isPending}
        >
          Sign out everywhere
        </button>
      </div>
      <FormError error={everywhere.error} fields={[]} />
    </section>
  );
}

/** The person's profile (all a reviewer sees); the workspace's name, members, API keys, providers and models, webhooks, and its audit log. */
export default function SettingsPage({ session }: { session: SignedIn }) {
  const { workspace } = session;
  // A reviewer reads nothing of the workspace but their queues: their profile is all there is here.
  if (session.role === 'reviewer')
    return (
      <section aria-labelledby="settings-title">
        <header className="page-header">
          <h1 id="settings-title">Settings</h1>
        </header>
        {session.user && <Profile user={session.user} />}
      </section>
    );
  return (
    <section aria-labelledby="settings-title">
      <header className="page-header">
        <h1 id="settings-title">Settings</h1>
      </header>
      {session.user && <Profile user={session.user} />}
      <WorkspaceName workspace={workspace} />
      <Members />
      <ApiKeys />
      <SignOutEverywhere />
      <Providers />
      <Webhooks />
      <AuditLog />
      <h2 className="section-title">Gateway</h2>
      <p>
        Interactions logged by <code>lectern gateway</code> are generations with source <code>gateway</code>:{' '}
        <Link to="/generations?source=gateway">see them in Generations</Link>.
      </p>
    </section>
  );
}
