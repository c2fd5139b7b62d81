import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { Field, FormError, SecretField, submitWith } from '../components/Field';

/** What the sign-in page offers: a password always; single sign-on and API keys as configured. */
function useSignInOptions() {
  return useQuery({
    queryKey: ['sign-in-options'],
    queryFn: () => api('GET /console/v1/sign_in_options'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A failed single sign-on comes back as `/?sign_in_error=…`: shown once, then taken off the address. */
function takeRedirectError(): string | undefined {
  const url = new URL(window.location.href);
  const message = url.searchParams.get('sign_in_error') ?? undefined;
  if (message) {
    url.searchParams.delete('sign_in_error');
    window.history.replaceState(null, '', url.pathname + url.search);
  }
  return message;
}

/** A person's e-mail address, as the sign-in and the forgotten-password form ask for it. */
function EmailField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: Error | null;
}) {
  return (
    <Field label="E-mail address" name="email" error={error}>
      <input
        name="email"
        type="email"
        autoComplete="username"
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/**
 * The forgotten-password form: a reset link is e-mailed when the address has an account and the
 * service sends mail. The answer is the same for any address, so the page never says which exist.
 */
function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: () => api('POST /console/v1/password_reset/request', { body: { email } }),
  });
  const submit = submitWith(request);
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="forgot-title">
        <h1 id="forgot-title">Set a new password</h1>
        {request.isSuccess ? (
          <p role="status">
            If an account has this address, a link to set a new password is on its way; it works once, within
            24 hours. No e-mail? The service may not send mail: ask an administrator of your workspace for a
            link.
          </p>
        ) : (
          <>
            <p>We e-mail a single-use link to the address of your account.</p>
            <EmailField value={email} onChange={setEmail} error={request.error} />
            <FormError error={request.error} fields={['email']} />
            <button type="submit" disabled={request.isPending}>
              {request.isPending ? 'Sending…' : 'Send the link'}
            </button>
          </>
        )}
        <button type="button" className="link-button" onClick={onBack}>
          Back to sign-in
        </button>
      </form>
    </main>
  );
}

/**
 * The sign-in: a person's e-mail address and password (and the forgotten-password form), "Sign in
 * with SSO" when the operator set up an OpenID provider, and a workspace API key when still allowed. Neither the password nor the key is
 * kept by the browser: both are exchanged for an HttpOnly session cookie.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const options = useSignInOptions();
  const [redirectError] = useState(takeRedirectError);
  const [withKey, setWithKey] = useState(false);
  const [forgot, setForgot] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [apiKey, setApiKey] = useState('');
  const signIn = useMutation({
    mutationFn: (body: Record<string, string>) => api('POST /console/v1/session', { body }),
    onSuccess: () => {
      setPassword('');
      setApiKey('');
      onSignedIn();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(withKey ? { api_key: apiKey } : { email, password });
  };
  const fields = withKey ? ['api_key'] : ['email', 'password'];
  if (forgot) return <ForgotPassword onBack={() => setForgot(false)} />;
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Lectern</h1>
        {redirectError && (
          <p className="field-error" role="alert">
            {redirectError}
          </p>
        )}
        {withKey ? (
          <>
            <p>
              Paste an API key of your workspace. It is exchanged for a session and not kept in the browser.
            </p>
            <SecretField
              label="API key"
              name="api_key"
              inputName="api-key"
              error={signIn.error}
              autoComplete="off"
              required
              value={apiKey}
              onChange={setApiKey}
            />
          </>
        ) : (
          <>
            <EmailField value={email} onChange={setEmail} error={signIn.error} />
            <SecretField
              label="Password"
              name="password"
              inputName="password"
              error={signIn.error}
              autoComplete="current-password"
              required
              value={password}
              onChange={setPassword}
            />
          </>
        )}
        <FormError error={signIn.error} fields={fields} />
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        {options.data?.sso && !withKey && (
          <a className="button secondary" href="/console/v1/oidc/start">
            Sign in with SSO
          </a>
        )}
        {!withKey && (
          <button type="button" className="link-button" onClick={() => setForgot(true)}>
            Forgot your password?
          </button>
        )}
        {options.data?.api_key && (
          <button type="button" className="link-button" onClick={() => setWithKey(!withKey)}>
            {withKey ? 'Use an e-mail address instead' : 'Use an API key instead'}
          </button>
        )}
      </form>
    </main>
  );
}
