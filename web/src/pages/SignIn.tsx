import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';

/** The key is sent once and exchanged for a session cookie; the page keeps it only while typed. */
export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [apiKey, setApiKey] = useState('');
  const signIn = useMutation({
    mutationFn: (key: string) => api('POST', '/console/v1/session', { api_key: key }),
    onSuccess: () => {
      setApiKey('');
      onSignedIn();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(apiKey);
  };
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Lectern</h1>
        <p>Paste an API key of your workspace. It is exchanged for a session and not kept in the browser.</p>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          required
          value={apiKey}
          aria-invalid={signIn.isError}
          aria-describedby={signIn.isError ? 'api-key-error' : undefined}
          onChange={(event) => setApiKey(event.target.value)}
        />
        {signIn.isError && (
          <p id="api-key-error" className="field-error" role="alert">
            {signIn.error.message}
          </p>
        )}
        <button type="submit" disabled={signIn.isPending || apiKey.trim() === ''}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
