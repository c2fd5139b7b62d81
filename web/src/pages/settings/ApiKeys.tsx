import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type KeyRole, keyRoles, type MemberRole } from '../../../../src/contract';
import { api } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Field, FormError, submitWith } from '../../components/Field';
import { ShownOnce } from '../../components/ShownOnce';
import { QueryView } from '../../components/states';
import { ValueSelect } from '../../components/ValueSelect';
import { keys } from '../../queries/keys';
import { useMe } from '../../queries/me';

const rank: Record<KeyRole | MemberRole, number> = {
  reviewer: -1,
  runner: 0,
  viewer: 0,
  developer: 1,
  admin: 2,
  owner: 3,
};

/** The roles a member may give their keys: up to their own (runner counts below developer). */
function grantable(role: KeyRole | MemberRole | undefined): KeyRole[] {
  if (!role || rank[role]! < 1) return [];
  return keyRoles.filter(
    (each) => each === role || rank[each]! < rank[role]! || (role === 'owner' && each === 'admin'),
  );
}

/**
 * API keys that belong to people: a member makes keys up to their own role (`runner` for
 * applications) and sees their own; an admin sees and revokes every key. A new key is shown once.
 */
export function ApiKeys() {
  const queries = useQueryClient();
  const me = useMe();
  const [created, setCreated] = useState<string | null>(null);
  const [name, setName] = useState('');
  const roles = grantable(me.data?.role);
  const [role, setRole] = useState<KeyRole>('runner');
  const apiKeys = useQuery({
    queryKey: keys.apiKeys.all,
    queryFn: () => api('GET /v1/api_keys'),
    enabled: me.data?.rights.includes('create_keys') ?? false,
  });
  const create = useMutation({
    mutationFn: () => api('POST /v1/api_keys', { body: { name, role } }),
    onSuccess: (answer) => {
      setCreated(answer.api_key);
      setName('');
      void queries.invalidateQueries({ queryKey: keys.apiKeys.all });
    },
  });
  const revoke = useMutation({
    mutationFn: (guid: string) => api('DELETE /v1/api_keys/{guid}', { path: { guid } }),
    onSettled: () => queries.invalidateQueries({ queryKey: keys.apiKeys.all }),
  });
  const submit = submitWith(create);
  const mayCreate = roles.length > 0;
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title" className="section-title">
        API keys
      </h2>
      {me.data && !mayCreate && (
        <p className="muted">
          A {me.data.role} may not create API keys; a developer or an admin can make one for you.
        </p>
      )}
      {mayCreate && (
        <form className="form-row" onSubmit={submit} aria-label="New API key">
          <Field label="Key name" name="name" error={create.error}>
            <input
              value={name}
              required
              placeholder="production app"
              onChange={(event) => setName(event.target.value)}
            />
          </Field>
          <Field
            label="Key role"
            name="role"
            error={create.error}
            hint="runner: run, feedback and logging only"
          >
            <ValueSelect values={roles} value={role} onChoose={setRole} />
          </Field>
          <button type="submit" disabled={create.isPending}>
            Create API key
          </button>
          <FormError error={create.error} fields={['name', 'role']} />
        </form>
      )}
      {created && (
        <ShownOnce value={created} copy onDone={() => setCreated(null)}>
          Copy the new key now: it is not shown again.
        </ShownOnce>
      )}
      {revoke.error && (
        <p className="field-error" role="alert">
          {revoke.error.message}
        </p>
      )}
      {mayCreate && (
        <QueryView query={apiKeys} what="the keys">
          {(data) => (
            <DataTable
              label="API keys"
              short
              rows={data.data}
              columns={[
                { header: 'Name', cell: (key) => key.name || '—' },
                { header: 'Role', cell: (key) => key.role },
                { header: 'Key', cell: (key) => <code>{key.prefix}…</code> },
                { header: 'Created by', cell: (key) => key.created_by?.email ?? 'no one (admin key)' },
                {
                  header: 'Last used',
                  cell: (key) => (key.last_used_at ? new Date(key.last_used_at).toLocaleString() : 'never'),
                },
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
                          if (
                            window.confirm(`Revoke ${key.prefix}…? Programs using it stop working at once.`)
                          )
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
      )}
    </section>
  );
}
