import { useQuery } from '@tanstack/react-query';
import { type Action, api, type ListEnvelope } from './api';

/** The workspace's Actions (first 100) and a GUID→name lookup that falls back to the GUID. */
export function useActionNames() {
  const actions = useQuery({
    queryKey: ['actions', 'all'],
    queryFn: () => api<ListEnvelope<Action>>('GET', '/v1/actions?limit=1000'),
  });
  const names = new Map(actions.data?.data.map((action) => [action.guid, action.name]));
  return {
    actions: actions.data?.data ?? [],
    name: (guid: string | null) => (guid ? (names.get(guid) ?? guid) : '—'),
  };
}
