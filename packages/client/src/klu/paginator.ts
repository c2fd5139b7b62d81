import type { HttpClient } from '../transport/http.js';
import type { Wire } from './converters.js';

type ListEnvelope = { data?: Wire[]; total_count?: number; has_next_page?: boolean };

/**
 * The SDK's paginator over a list route (`skip`, `limit`, the list envelope): pages of records
 * converted for the SDK, its page state in public fields.
 */
export class Paginator<Record = Wire, Params extends object = Wire> {
  currentPage = 0;
  hasNextPage = true;
  totalCount: number | null = null;

  constructor(
    private readonly http: HttpClient,
    private readonly path: string,
    private readonly convert: (record: Wire) => Record,
    public limit = 100,
  ) {}

  private async page(skip: number, limit: number, params?: Params): Promise<Record[]> {
    const query = { ...(params as Wire | undefined), skip, limit } as Parameters<
      HttpClient['request']
    >[0]['query'];
    const answer = await this.http.request<ListEnvelope>({ method: 'GET', path: this.path, query });
    this.totalCount = answer.body.total_count ?? 0;
    this.hasNextPage = answer.body.has_next_page ?? false;
    return (answer.body.data ?? []).map(this.convert);
  }

  /** Every record, page after page. */
  async fetchAll(limit?: number, params?: Params): Promise<Record[]> {
    this.resetPaginator();
    const pageSize = limit ?? this.limit;
    let records: Record[] = [];
    while (this.hasNextPage) {
      records = records.concat(await this.page(this.currentPage * pageSize, pageSize, params));
      this.currentPage += 1;
    }
    this.resetPaginator();
    return records;
  }

  /** Page `pageNumber` (from 1). */
  async fetchSinglePage(pageNumber: number, limit?: number, params?: Params): Promise<Record[]> {
    this.resetPaginator();
    const pageSize = limit ?? this.limit;
    const records = await this.page((pageNumber - 1) * pageSize, pageSize, params);
    this.resetPaginator();
    return records;
  }

  /** The page after the last one fetched (empty once there is none), `offset` records further on. */
  async fetchNextPage(limit?: number, offset = 0): Promise<Record[]> {
    if (!this.hasNextPage) return [];
    const pageSize = limit ?? this.limit;
    const records = await this.page(this.currentPage * pageSize + offset, pageSize);
    this.currentPage += 1;
    return records;
  }

  resetPaginator(): void {
    this.currentPage = 0;
    this.totalCount = null;
    this.hasNextPage = true;
  }
}
