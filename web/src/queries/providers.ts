import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { keys } from './keys';

/** The provider kinds this service offers (GET /v1/providers/kinds): the same for every page, rarely changed. */
export function useProviderKinds() {
  return useQuery({
    queryKey: keys.providers.kinds,
    queryFn: () => api('GET /v1/providers/kinds'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
