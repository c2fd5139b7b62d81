import type { HttpClient } from '../transport/http.js';
import {
  actionConverter,
  contextConverter,
  dataConverter,
  runOptionsToWire,
  skillConverter,
  versionConverter,
  type Wire,
} from './converters.js';
import { Paginator } from './paginator.js';
import { KluResource } from './resource.js';
import { asyncAnswer, readResult, startRun, streamingAnswer, syncAnswer } from './runs.js';
import type {
  ActionPromptConfig,
  ActionRunConfig,
  AsyncPromptResponse,
  AsyncPromptResultResponse,
  Context,
  NewAction,
  PersistedAction,
  PersistedData,
  PlaygroundPromptConfig,
  PromptInput,
  Skill,
  StreamingPromptResponse,
  SyncPromptResponse,
  Version,
} from './types.js';

/** `klu.actions`: Actions, their versions and deployments, and runs in the three modes. */
export class Actions extends KluResource<PersistedAction, NewAction> {
  readonly paginator: Paginator<PersistedAction>;

  constructor(http: HttpClient) {
    super(http, '/v1/actions/', actionConverter);
    this.paginator = new Paginator(
      http,
      this.basePath,
      (record) => actionConverter.fromWire(record) as PersistedAction,
      50,
    );
  }

  override async create(data: NewAction): Promise<PersistedAction> {
    return super.create(data, 'create');
  }

  private run(action: string, input: PromptInput, config: ActionRunConfig) {
    const body = { input, action, ...runOptionsToWire(config as Wire) };
    return startRun(this.http, this.basePath, body, { instanceName: 'Action', id: action });
  }

  async prompt(action: string, input: PromptInput, config?: ActionPromptConfig): Promise<SyncPromptResponse> {
    return syncAnswer(await this.run(action, input, { ...config, asyncMode: false, streaming: false }));
  }

  async asyncPrompt(
    action: string,
    input: PromptInput,
    config?: ActionPromptConfig,
  ): Promise<AsyncPromptResponse> {
    return asyncAnswer(await this.run(action, input, { ...config, asyncMode: true, streaming: false }));
  }

  async stream(
    action: string,
    input: PromptInput,
    config?: ActionPromptConfig,
  ): Promise<StreamingPromptResponse> {
    const answer = await this.run(action, input, { ...config, streaming: true, asyncMode: false });
    return streamingAnswer(this.http, answer);
  }

  /** Sent as the SDK sends it; Lectern answers `501 not_supported` (every run is an Action's). */
  async playground(
    prompt: string,
    modelId: number,
    config?: PlaygroundPromptConfig,
  ): Promise<StreamingPromptResponse> {
    const { toolIds = [], indexIds = [], ...rest } = config ?? {};
    const answer = await this.call<Wire>('POST', 'playground', {
      prompt,
      modelId,
      toolIds,
      indexIds,
      ...rest,
    });
    return streamingAnswer(this.http, answer as never);
  }

  getAsyncPromptResult(resultUrl: string): Promise<AsyncPromptResultResponse> {
    return readResult(this.http, resultUrl);
  }

  async deploy(action: string, version: string | number, environment: string): Promise<object> {
    return this.callFor('Action', action, 'POST', `${action}/deploy`, { version, environment });
  }

  async disable(action: string): Promise<object> {
    return this.callFor('Action', action, 'POST', `${action}/disable`);
  }

  async getVersions(action: string): Promise<Version[]> {
    const answer = await this.callFor<{ data?: Wire[] }>('Action', action, 'GET', `${action}/versions`);
    return (answer.data ?? []).map((record) => versionConverter.fromWire(record) as Version);
  }

  async getData(action: string): Promise<PersistedData[]> {
    const records = await this.callFor<Wire[]>('Action', action, 'GET', `${action}/data`);
    return records.map((record) => dataConverter.fromWire(record) as PersistedData);
  }

  async getSkills(action: string): Promise<Skill[]> {
    const records = await this.callFor<Wire[]>('Action', action, 'GET', `${action}/skills`);
    return records.map((record) => skillConverter.fromWire(record) as Skill);
  }

  async updateSkills(action: string, skills: string[]): Promise<boolean> {
    return this.callFor<boolean>('Action', action, 'PUT', `${action}/skills`, { skills });
  }

  async getContext(action: string): Promise<Context[]> {
    const records = await this.callFor<Wire[]>('Action', action, 'GET', `${action}/context`);
    return records.map((record) => contextConverter.fromWire(record) as unknown as Context);
  }

  async updateContext(action: string, context: string[]): Promise<boolean> {
    return this.callFor<boolean>('Action', action, 'PUT', `${action}/context`, { context });
  }
}
