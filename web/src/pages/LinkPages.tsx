import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { Field, FormError, SecretField } from '../components/Field';

// The pages a single-use link opens, outside the signed-in console: the first owner's setup, an
// invitation, a password reset. The link's token is read from the address and sent once.

const tokenOfPage = () => new URL(window.location.href).searchParams.get('token') ?? '';

/** The page a link opens, if the address is one (`/setup`, `/invite`, `/reset-password`). */
export function linkPageOf(pathname: string): 'setup' | 'invite' | 'reset-password' | undefined {
  const page = pathname.replace(/\/+$/, '');
  if (page === '/setup' || page === '/invite' || page === '/reset-password') return page.slice(1) as never;
  return undefined;
}

function LinkForm({
  title,
  intro,
  submitLabel,
  error,
  pending,
  onSubmit,
  children,
  fields,
}: {
  title: string;
  intro: string;
  submitLabel: string;
  error: Error | null;
  pending: boolean;
  onSubmit: () => void;
  children: React.ReactNode;
  fields: string[];
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="link-title">
        <h1 id="link-title">{title}</h1>
        <p>{intro}</p>
        {children}
        <FormError error={error} fields={fields} />
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
      </form>
    </main>
  );
}

const passwordHint = 'At least 12 characters.';

/** Sets the first owner from the setup link printed on the first start. */
function SetupPage({ onSignedIn }: { onSignedIn: () => void }) {
  const token = tokenOfPage();
  const [form, setForm] = useState({ email: '', name: '', password: '' });
  const state = useQuery({
    queryKey: ['setup', token],
    queryFn: () => api('GET /console/v1/setup', { query: { token } }),
  });
  const setup = useMutation({
    mutationFn: () => api('POST /console/v1/setup', { body: { token, ...form } }),
    onSuccess: onSignedIn,
  });
  if (state.data && !state.data.pending)
    return (
      <main className="sign-in">
        {state.data.owner_exists ? (
          <p className="page-state" role="alert">
            This setup link is used: Lectern has its owner already. <a href="/">Sign in</a>, or ask an owner
            to invite you.
          </p>
        ) : (
          <p className="page-state" role="alert">
            This setup link is expired. Restart Lectern to print a new one.
          </p>
        )}
      </main>
    );
  return (
    <LinkForm
      title="Set up Lectern"
      intro="Choose the e-mail address and password of the first owner of workspace “default”."
      submitLabel="Create the owner and sign in"
      error={setup.error}
      pending={setup.isPending}
      onSubmit={() => setup.mutate()}
      fields={['email', 'name', 'password']}
    >
      <Field label="E-mail address" name="email" error={setup.error}>
        <input
          type="email"
          autoComplete="username"
          required
          value={form.email}
          onChange={(event) => setForm({ ...form, email: event.target.value })}
        />
      </Field>
      <NameAndPassword form={form} setForm={setForm} error={setup.error} />
    </LinkForm>
  );
}

/** The name and the new password a person gives to join (the first owner, an invited person). */
function NameAndPassword<Form extends { name: string; password: string }>({
  form,
  setForm,
  error,
}: {
  form: Form;
  setForm: (form: Form) => void;
  error: Error | null;
}) {
  return (
    <>
      <Field label="Name" name="name" error={error}>
        <input
          autoComplete="name"
          value={form.name}
          onChange={(event) => setForm({ ...form, name: event.target.value })}
        />
      </Field>
      <SecretField
        label="Password"
        name="password"
        error={error}
        hint={passwordHint}
        autoComplete="new-password"
        required
        value={form.password}
        onChange={(password) => setForm({ ...form, password })}
      />
    </>
  );
}

/** Accepts an invitation: a new person chooses a password; an existing one gives theirs. */
function InvitationPage({ onSignedIn }: { onSignedIn: () => void }) {
  const token = tokenOfPage();
  const [form, setForm] = useState({ name: '', password: '' });
  const accept = useMutation({
    mutationFn: () =>
      api('POST /console/v1/invitations/accept', { body: { token, ...form, name: form.name || undefined } }),
    onSuccess: onSignedIn,
  });
  return (
    <LinkForm
      title="Join the workspace"
      intro="Choose a password to create your account, or give your password if you already have one."
      submitLabel="Accept and sign in"
      error={accept.error}
      pending={accept.isPending}
      onSubmit={() => accept.mutate()}
      fields={['name', 'password']}
    >
      <NameAndPassword form={form} setForm={setForm} error={accept.error} />
    </LinkForm>
  );
}

/** Sets a new password from a reset link (an admin's, the operator's, or the forgotten-password form's). */
function ResetPage() {
  const token = tokenOfPage();
  const [password, setPassword] = useState('');
  const reset = useMutation({
    mutationFn: () => api('POST /console/v1/password_reset', { body: { token, password } }),
  });
  if (reset.isSuccess)
    return (
      <main className="sign-in">
        <p className="page-state">
          Your password is set. <a href="/">Sign in</a>.
        </p>
      </main>
    );
  return (
    <LinkForm
      title="Set a new password"
      intro="The link works once."
      submitLabel="Set the password"
      error={reset.error}
      pending={reset.isPending}
      onSubmit={() => reset.mutate()}
      fields={['password']}
    >
      <SecretField
        label="New password"
        name="password"
        error={reset.error}
        hint={passwordHint}
        autoComplete="new-password"
        required
        value={password}
        onChange={setPassword}
      />
    </LinkForm>
  );
}

/** The page of a link; signing in (setup, invitation) leaves the link's address for the console's. */
export function LinkPage({
  page,
  onSignedIn,
}: {
  page: 'setup' | 'invite' | 'reset-password';
  onSignedIn: () => void;
}) {
  const signedIn = () => {
    window.history.replaceState(null, '', '/');
    onSignedIn();
  };
  if (page === 'setup') return <SetupPage onSignedIn={signedIn} />;
  if (page === 'invite') return <InvitationPage onSignedIn={signedIn} />;
  return <ResetPage />;
}
