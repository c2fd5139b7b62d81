import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type MemberRole, memberRoles } from '../../../../src/contract';
import { api, type Member, type NewInvitation } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Field, FormError, submitWith } from '../../components/Field';
import { ShownOnce } from '../../components/ShownOnce';
import { QueryView } from '../../components/states';
import { ValueSelect } from '../../components/ValueSelect';
import { keys } from '../../queries/keys';
import { useMe } from '../../queries/me';

/**
 * The workspace's members: everyone sees who belongs; an admin invites (the link is shown, and
 * e-mailed when the service has SMTP), changes roles below owner and removes members; only an owner
 * touches owners. What the person may not do is disabled with the reason.
 */
export function Members() {
  const queries = useQueryClient();
  const me = useMe();
  const manages = me.data?.rights.includes('manage') ?? false;
  const managesOwners = me.data?.rights.includes('manage_owners') ?? false;
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('developer');
  const [invited, setInvited] = useState<NewInvitation | null>(null);
  const members = useQuery({
    queryKey: keys.members.all,
    queryFn: () => api('GET /v1/members', { query: { limit: 1000 } }),
  });
  const invitations = useQuery({
    queryKey: keys.invitations.all,
    queryFn: () => api('GET /v1/invitations'),
    enabled: manages,
  });
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: keys.members.all });
    void queries.invalidateQueries({ queryKey: keys.invitations.all });
  };
  const invite = useMutation({
    mutationFn: () => api('POST /v1/members', { body: { email, role } }),
    onSuccess: (answer) => {
      setInvited(answer);
      setEmail('');
      refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ guid, next }: { guid: string; next: MemberRole }) =>
      api('PUT /v1/members/{guid}', { path: { guid }, body: { role: next } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (guid: string) => api('DELETE /v1/members/{guid}', { path: { guid } }),
    onSettled: refresh,
  });
  const revoke = useMutation({
    mutationFn: (guid: string) => api('DELETE /v1/invitations/{guid}', { path: { guid } }),
    onSettled: refresh,
  });
  const [resetLink, setResetLink] = useState<{ email: string; url: string; emailed: boolean } | null>(null);
  const reset = useMutation({
    mutationFn: (member: Member) =>
      api('POST /v1/members/{guid}/password_reset', { path: { guid: member.user.guid } }),
    onSuccess: (answer, member) =>
      setResetLink({ email: member.user.email, url: answer.reset_url, emailed: answer.emailed }),
  });
  const submit = submitWith(invite);
  const offered = memberRoles.filter((each) => each !== 'owner' || managesOwners);
  const mayTouch = (member: Member) => manages && (member.role !== 'owner' || managesOwners);
  const reason = !manages ? 'Only an admin manages members' : 'Only an owner changes an owner';
  const actionError = change.error ?? remove.error ?? revoke.error ?? reset.error;
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title" className="section-title">
        Members
      </h2>
      {manages ? (
        <form className="form-row" onSubmit={submit} aria-label="Invite a member">
          <Field label="E-mail address to invite" name="email" error={invite.error}>
            <input type="email" value={email} required onChange={(event) => setEmail(event.target.value)} />
          </Field>
          <Field label="Role" name="role" error={invite.error}>
            <ValueSelect values={offered} value={role} onChoose={setRole} />
          </Field>
          <button type="submit" disabled={invite.isPending}>
            Invite
          </button>
          <FormError error={invite.error} fields={['email', 'role']} />
        </form>
      ) : (
        <p className="muted">Only an admin invites members and changes roles.</p>
      )}
      {invited && (
        <ShownOnce value={invited.invite_url} onDone={() => setInvited(null)}>
          {invited.emailed ? `Invitation e-mailed to ${invited.email}. ` : ''}Send this link to{' '}
          {invited.email}: it works once, for 7 days.
        </ShownOnce>
      )}
      {resetLink && (
        <ShownOnce value={resetLink.url} onDone={() => setResetLink(null)}>
          {resetLink.emailed ? `Reset link e-mailed to ${resetLink.email}. ` : ''}Send this link to{' '}
          {resetLink.email}: it sets a new password once, within 24 hours.
        </ShownOnce>
      )}
      {actionError && (
        <p className="field-error" role="alert">
          {actionError.message}
        </p>
      )}
      <QueryView query={members} what="the members">
        {(data) => (
          <DataTable
            label="Members"
            short
            rows={data.data}
            rowKey={(member) => member.user.guid}
            columns={[
              { header: 'Name', cell: (member) => member.user.name || '—' },
              { header: 'E-mail', cell: (member) => member.user.email },
              {
                header: 'Role',
                cell: (member) => (
                  <ValueSelect
                    aria-label={`Role of ${member.user.email}`}
                    values={memberRoles.filter(
                      (each) => each === member.role || each !== 'owner' || managesOwners,
                    )}
                    value={member.role}
                    disabled={!mayTouch(member)}
                    title={mayTouch(member) ? undefined : reason}
                    onChoose={(next) => change.mutate({ guid: member.user.guid, next })}
                  />
                ),
              },
              {
                header: <span className="visually-hidden">Reset password</span>,
                cell: (member) => (
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Reset password of ${member.user.email}`}
                    disabled={!mayTouch(member)}
                    title={mayTouch(member) ? undefined : reason}
                    onClick={() => reset.mutate(member)}
                  >
                    Reset password
                  </button>
                ),
              },
              {
                header: <span className="visually-hidden">Remove</span>,
                cell: (member) => (
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Remove ${member.user.email}`}
                    disabled={!mayTouch(member)}
                    title={mayTouch(member) ? undefined : reason}
                    onClick={() => {
                      if (window.confirm(`Remove ${member.user.email}? Their keys stop working at once.`))
                        remove.mutate(member.user.guid);
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
      {manages && invitations.data && invitations.data.data.length > 0 && (
        <DataTable
          label="Pending invitations"
          short
          rows={invitations.data.data}
          columns={[
            { header: 'Invited', cell: (invitation) => invitation.email },
            { header: 'Role', cell: (invitation) => invitation.role },
            { header: 'Expires', cell: (invitation) => new Date(invitation.expires_at).toLocaleString() },
            {
              header: <span className="visually-hidden">Revoke</span>,
              cell: (invitation) => (
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Revoke the invitation of ${invitation.email}`}
                  onClick={() => revoke.mutate(invitation.guid)}
                >
                  Revoke
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
