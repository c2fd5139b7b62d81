import { useAllActions } from './queries/lists';

/** The workspace's Actions (first 100) and a GUID→name lookup that falls back to the GUID. */
export function useActionNames() {
  const actions = useAllActions();
  const names = new Map(actions.data?.data.map((action) => [action.guid, action.name]));
  return {
    actions: actions.data?.data ?? [],
    name: (guid: string | null) => (guid ? (names.get(guid) ?? guid) : '—'),
  };
}
