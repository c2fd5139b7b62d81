import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type SignedIn } from '../../api';
import { Field, FormError, SecretField } from '../../components/Field';
import { keys } from '../../queries/keys';

/** A signed-in person's name and password (an API key has neither). */
export function Profile({ user }: { user: NonNullable<SignedIn['user']> }) {
  const queries = useQueryClient();
  const [name, setName] = useState(user.name);
  const [passwords, setPasswords] = useState({ current_password: '', new_password: '' });
  const rename = useMutation({
    mutationFn: () => api('PUT /v1/me', { body: { name } }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: keys.session });
      void queries.invalidateQueries({ queryKey: keys.members.all });
    },
  });
  const change = useMutation({
    mutationFn: () => api('PUT /v1/me/password', { body: passwords }),
    onSuccess: () => setPasswords({ current_password: '', new_password: '' }),
  });
  const submit = (work: () => void) => (event: FormEvent) => {
    event.preventDefault();
    work();
  };
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title" className="section-title">
        Your profile
      </h2>
      <p className="muted">{user.email}</p>
      <form className="form-row" onSubmit={submit(() => rename.mutate())} aria-label="Profile name">
        <Field label="Your name" name="name" error={rename.error}>
          <input value={name} autoComplete="name" onChange={(event) => setName(event.target.value)} />
        </Field>
        <button type="submit" disabled={rename.isPending || name === user.name}>
          Save name
        </button>
        <FormError error={rename.error} fields={['name']} />
      </form>
      <form className="form-row" onSubmit={submit(() => change.mutate())} aria-label="Password change">
        <SecretField
          label="Current password"
          name="current_password"
          error={change.error}
          autoComplete="current-password"
          value={passwords.current_password}
          onChange={(current_password) => setPasswords({ ...passwords, current_password })}
        />
        <SecretField
          label="New password"
          name="new_password"
          error={change.error}
          hint="At least 12 characters."
          autoComplete="new-password"
          required
          value={passwords.new_password}
          onChange={(new_password) => setPasswords({ ...passwords, new_password })}
        />
        <button type="submit" disabled={change.isPending}>
          Change password
        </button>
        <span className="muted" aria-live="polite">
          {change.isSuccess ? 'Password changed.' : ''}
        </span>
        <FormError error={change.error} fields={['current_password', 'new_password']} />
      </form>
    </section>
  );
}
