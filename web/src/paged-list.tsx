import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type ListEnvelope } from './api';
import { Pager } from './components/Pager';

/**
 * One page of a server list (`skip`/`limit`) and the pager under it: lists of any length stay one
 * page in the browser. The query key starts with `key`, so invalidating `key` reloads every page.
 */
export function usePagedList<Row>(key: readonly unknown[], path: string, pageSize = 50) {
  const [skip, setSkip] = useState(0);
  const query = useQuery({
    queryKey: [...key, 'page', skip, pageSize],
    queryFn: () =>
      api<ListEnvelope<Row>>('GET', `${path}${path.includes('?') ? '&' : '?'}skip=${skip}&limit=${pageSize}`),
    placeholderData: keepPreviousData,
  });
  const pager = query.data && (
    <Pager
      skip={skip}
      pageSize={pageSize}
      total={query.data.total_count}
      hasNext={query.data.has_next_page}
      onSkip={setSkip}
    />
  );
  return { query, pager };
}
