import type { HttpClient } from '../transport/http.js';
import { dataConverter, sessionConverter } from './converters.js';
import { NotImplementedError } from './errors.js';
import { Paginator } from './paginator.js';
import { KluResource } from './resource.js';
import type { PersistedData, PersistedSession, Session, SessionsListParams } from './types.js';

/** `klu.sessions`: conversations whose earlier turns a run replays. */
export class Sessions extends KluResource<PersistedSession, Session> {
  readonly paginator: Paginator<PersistedSession, SessionsListParams>;

  constructor(http: HttpClient) {
    super(http, '/v1/sessions/', sessionConverter);
    this.paginator = new Paginator(http, this.basePath, (record) => record as PersistedSession, 50);
  }

  /** Refused before any request, as the SDK refuses it. */
  override async update(): Promise<never> {
    throw new NotImplementedError('sessions.update');
  }

  /** Pages of the session's generations. */
  getDataPaginator(session: string, pageSize?: number): Paginator<PersistedData> {
    return new Paginator(
      this.http,
      `${this.basePath}${session}/data`,
      (record) => dataConverter.fromWire(record) as PersistedData,
      pageSize || 100,
    );
  }
}
