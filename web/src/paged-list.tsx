import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ListEnvelope } from './api';
import { Pager } from './components/Pager';

/** Which page of a list to read: what every list route's `skip` and `limit` take. */
export type Page = { skip: number; limit: number };

/** Reads one page of a list route: `(page) => api('GET /v1/sessions', { query: page })`. */
export type PageReader<Row> = (page: Page) => Promise<ListEnvelope<Row>>;

/**
 * One page of a server list (`skip`/`limit`) and the pager under it: lists of any length stay one
 * page in the browser. The query key starts with `key`, so invalidating `key` reloads every page.
 */
export function usePagedList<Row>(key: readonly unknown[], read: PageReader<Row>, pageSize = 50) {
  const [skip, setSkip] = useState(0);
  const query = useQuery({
    queryKey: [...key, 'page', skip, pageSize],
    queryFn: () => read({ skip, limit: pageSize }),
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
