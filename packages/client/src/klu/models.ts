import type { HttpAnswer, HttpClient } from '../transport/http.js';
import { modelConverter, providerConverter, type Wire } from './converters.js';
import { NotImplementedError } from './errors.js';
import { KluResource } from './resource.js';
import type {
  CreateModelData,
  Model,
  PersistedModel,
  PersistedProvider,
  Provider,
  ProviderWithModels,
  RawAnswer,
} from './types.js';

function raw<Body>(answer: HttpAnswer<Body>): RawAnswer<Body> {
  return {
    data: answer.body,
    status: answer.status,
    statusText: '',
    headers: Object.fromEntries(answer.headers.entries()),
  };
}

/** `klu.models`: the workspace's models and providers (provider keys are stored encrypted, never answered). */
export class Models extends KluResource<PersistedModel, Model> {
  constructor(http: HttpClient) {
    super(http, '/v1/models/', modelConverter);
  }

  override async create(modelData: CreateModelData): Promise<PersistedModel> {
    return modelConverter.fromWire(
      await this.call('POST', '', modelConverter.toWire(modelData as unknown as Wire)),
    ) as PersistedModel;
  }

  /** Refused before any request, as the SDK refuses it. */
  override async update(): Promise<never> {
    throw new NotImplementedError('models.update');
  }

  async getAllModels(skip?: number, limit?: number): Promise<PersistedModel[]> {
    const records = await this.call<Wire[]>('GET', '', undefined, { skip: skip || 0, limit: limit || 500 });
    return records.map((record) => modelConverter.fromWire(record) as PersistedModel);
  }

  async getDefault(): Promise<PersistedModel> {
    return modelConverter.fromWire(
      await this.callFor('Default model', undefined, 'GET', 'models/default'),
    ) as PersistedModel;
  }

  async addProvider(
    provider: string,
    key: string,
    url?: string,
    nickname?: string,
    defaultProvider?: boolean,
  ): Promise<ProviderWithModels> {
    const body = { provider, key, url, nickname: nickname || '', default: defaultProvider };
    const answer = await this.call('POST', 'provider/', body);
    return {
      ...(providerConverter.fromWire(answer) as PersistedProvider),
      models: ((answer.models as Wire[] | undefined) ?? []).map(
        (record) => modelConverter.fromWire(record) as PersistedModel,
      ),
    };
  }

  async getProviders(): Promise<PersistedProvider[]> {
    const records = await this.call<Wire[]>('GET', 'provider/');
    return records.map((record) => providerConverter.fromWire(record) as PersistedProvider);
  }

  /** The provider's models. (The SDK asked for the provider list here, its path lacking the GUID.) */
  async getProviderModels(providerGuid: string): Promise<PersistedModel[]> {
    const models = await this.getAllModels();
    return models.filter((model) => model.providerGuid === providerGuid);
  }

  async updateProvider(
    providerGuid: string,
    nickname?: string,
    defaultProvider?: boolean,
    url?: string,
    key?: string,
  ): Promise<RawAnswer<Provider>> {
    const body = { key, url, nickname: nickname || '', default: defaultProvider };
    return raw(
      await this.http.request<Provider>({
        method: 'PUT',
        path: `${this.basePath}provider/${providerGuid}`,
        body,
      }),
    );
  }

  async deleteProvider(providerGuid: string): Promise<RawAnswer<{ msg: string }>> {
    return raw(
      await this.http.request<{ msg: string }>({
        method: 'DELETE',
        path: `${this.basePath}provider/${providerGuid}`,
      }),
    );
  }

  /** Whether the vendor takes the key (Lectern asks the vendor's model list). */
  async validateProviderApiKey(apiKey: string, provider: number | string): Promise<boolean> {
    const answer = await this.callFor('Provider', String(provider), 'POST', 'validate', {
      api_key: apiKey,
      provider,
    });
    return answer.validated as boolean;
  }
}
