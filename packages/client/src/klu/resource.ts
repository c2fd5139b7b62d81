import type { HttpClient, HttpRequest, QueryValue } from '../transport/http.js';
import type { Converter, Wire } from './converters.js';
import { notFoundAs } from './errors.js';

/**
 * What every Klu namespace does: requests under its path (`/v1/apps/`), records converted both
 * ways, and the SDK's create/get/update/delete.
 */
export class KluResource<Persisted = Wire, Input = Wire> {
  constructor(
    protected readonly http: HttpClient,
    /** The namespace's path, with slashes on both ends: `/v1/apps/`. */
    protected readonly basePath: string,
    protected readonly converter: Converter,
  ) {}

  /** A request at `relativePath` under the namespace, answering the body. */
  protected async call<Body = Wire>(
    method: HttpRequest['method'],
    relativePath: string,
    body?: unknown,
    query?: Record<string, QueryValue>,
  ): Promise<Body> {
    const answer = await this.http.request<Body>({
      method,
      path: `${this.basePath}${relativePath}`,
      body,
      query,
    });
    return answer.body;
  }

  /**
   * The same request; a 404 is worded and named as the SDK's method of that record does it for
   * `instanceName` (and `id`), or, `generic`, as its generic get, update and delete do.
   */
  protected async callFor<Body = Wire>(
    instanceName: string,
    id: string | undefined,
    method: HttpRequest['method'],
    relativePath: string,
    body?: unknown,
    generic = false,
  ): Promise<Body> {
    try {
      return await this.call<Body>(method, relativePath, body);
    } catch (error) {
      throw notFoundAs(error, instanceName, id, generic);
    }
  }

  async create(data: Input, customPath = ''): Promise<Persisted> {
    try {
      const answer = await this.call('POST', customPath, this.converter.toWire(data as Wire));
      return this.converter.fromWire(answer) as Persisted;
    } catch (error) {
      throw notFoundAs(error, `One of the relationships for new ${this.converter.instanceName}`);
    }
  }

  async get(id: string): Promise<Persisted> {
    return this.converter.fromWire(
      await this.callFor(this.converter.instanceName, id, 'GET', id, undefined, true),
    ) as Persisted;
  }

  async update(id: string, data: Partial<Persisted>): Promise<Persisted> {
    const body = this.converter.toWire(data as Wire);
    const answer = await this.callFor(this.converter.instanceName, id, 'PUT', id, body, true);
    return this.converter.fromWire(answer) as Persisted;
  }

  async delete(id: string): Promise<Persisted> {
    return this.converter.fromWire(
      await this.callFor(this.converter.instanceName, id, 'DELETE', id, undefined, true),
    ) as Persisted;
  }
}
