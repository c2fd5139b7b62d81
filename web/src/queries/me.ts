import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { keys } from './keys';

/**
 * Who is signed in and the rights they hold (`GET /v1/me`): pages hide or disable what the person
 * may not do, with the reason. The service's `403` stays the authority; this only reflects it.
 */
export function useMe() {
  return useQuery({ queryKey: keys.me, queryFn: () => api('GET /v1/me') });
}

/** Whether the signed-in principal holds `right` (false while loading). */
export function useRight(right: string): { allowed: boolean; role: string | undefined } {
  const me = useMe();
  return { allowed: me.data?.rights.includes(right) ?? false, role: me.data?.role };
}
