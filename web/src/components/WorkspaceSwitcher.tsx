import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type SignedIn } from '../api';
import { keys } from '../queries/keys';
import { FormError } from './Field';

/**
 * The signed-in workspace; for a person of several, a picker that moves the session to another
 * (`POST /console/v1/session/workspace`). Every cached answer belongs to the old one, so all go.
 */
export function WorkspaceSwitcher({ session }: { session: SignedIn }) {
  const queries = useQueryClient();
  const workspaces = useQuery({
    queryKey: ['my-workspaces'],
    queryFn: () => api('GET /v1/me/workspaces'),
    enabled: session.user !== null,
  });
  const switchTo = useMutation({
    mutationFn: (workspace: string) => api('POST /console/v1/session/workspace', { body: { workspace } }),
    onSuccess: () => {
      queries.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.session[0] });
      void queries.invalidateQueries({ queryKey: keys.session });
    },
  });
  const list = workspaces.data ?? [];
  if (list.length < 2)
    return (
      <div className="workspace" title="Signed-in workspace">
        {session.workspace.name}
      </div>
    );
  return (
    <div className="workspace">
      <label htmlFor="workspace-switcher" className="visually-hidden">
        Workspace
      </label>
      <select
        id="workspace-switcher"
        value={session.workspace.guid}
        disabled={switchTo.isPending}
        onChange={(event) => switchTo.mutate(event.target.value)}
      >
        {list.map((workspace) => (
          <option key={workspace.guid} value={workspace.guid}>
            {workspace.name} ({workspace.role})
          </option>
        ))}
      </select>
      {/* A membership removed since the list was read: the session stays where it was, and says so. */}
      <FormError error={switchTo.error} fields={[]} />
    </div>
  );
}
