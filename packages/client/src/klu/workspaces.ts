import type { HttpClient } from '../transport/http.js';
import {
  appConverter,
  contextConverter,
  modelConverter,
  type Wire,
  workspaceConverter,
} from './converters.js';
import { Paginator } from './paginator.js';
import { KluResource } from './resource.js';
import type {
  PersistedApp,
  PersistedContext,
  PersistedModel,
  PersistedWorkspace,
  Workspace,
} from './types.js';

/** `klu.workspaces`: the key's workspace (another's is a 404; creating and deleting is the operator's). */
export class Workspaces extends KluResource<PersistedWorkspace, Workspace> {
  readonly paginator: Paginator<PersistedWorkspace>;

  constructor(http: HttpClient) {
    super(http, '/v1/workspace/', workspaceConverter);
    this.paginator = new Paginator(
      http,
      this.basePath,
      (record) => workspaceConverter.fromWire(record) as PersistedWorkspace,
      50,
    );
  }

  async getCurrent(): Promise<PersistedWorkspace> {
    return workspaceConverter.fromWire(
      await this.callFor('Workspace', undefined, 'GET', 'current'),
    ) as PersistedWorkspace;
  }

  async getApps(guid: string): Promise<PersistedApp[]> {
    const records = await this.callFor<Wire[]>('Workspace', guid, 'GET', `${guid}/apps`);
    return records.map((record) => appConverter.fromWire(record) as PersistedApp);
  }

  async getContexts(guid: string): Promise<PersistedContext[]> {
    const records = await this.callFor<Wire[]>('Workspace', guid, 'GET', `${guid}/context`);
    return records.map((record) => contextConverter.fromWire(record) as PersistedContext);
  }

  async getModels(guid: string): Promise<PersistedModel[]> {
    const records = await this.callFor<Wire[]>('Workspace', guid, 'GET', `${guid}/models`);
    return records.map((record) => modelConverter.fromWire(record) as PersistedModel);
  }
}
