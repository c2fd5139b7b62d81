import type { HttpClient } from '../transport/http.js';
import { experimentConverter } from './converters.js';
import { KluResource } from './resource.js';
import { asyncAnswer, readResult, startRun, streamingAnswer, syncAnswer } from './runs.js';
import type {
  AsyncPromptResponse,
  AsyncPromptResultResponse,
  BaseExperimentPromptConfig,
  Experiment,
  ExperimentPromptConfig,
  ExperimentUpdateData,
  PersistedExperiment,
  PromptInput,
  StreamingPromptResponse,
  SyncPromptResponse,
} from './types.js';

/** `klu.experiments`: A/B experiments between two Actions, and runs through them. */
export class Experiments extends KluResource<PersistedExperiment, Experiment> {
  constructor(http: HttpClient) {
    super(http, '/v1/experiments/', experimentConverter);
  }

  override async update(id: string, data: ExperimentUpdateData): Promise<PersistedExperiment> {
    return super.update(id, data as Partial<PersistedExperiment>);
  }

  private run(experimentGuid: string, input: PromptInput, config: ExperimentPromptConfig) {
    const { asyncMode, forceAction, metadataFilter, ...rest } = config;
    const body = {
      input,
      async_mode: asyncMode,
      force_action: forceAction,
      metadata_filter: metadataFilter,
      ...rest,
    };
    const path = `${this.basePath}${experimentGuid}/prompt`;
    return startRun(this.http, path, body, { instanceName: 'Experiment', id: experimentGuid });
  }

  async prompt(
    experimentGuid: string,
    input: PromptInput,
    config?: BaseExperimentPromptConfig,
  ): Promise<SyncPromptResponse> {
    return syncAnswer(
      await this.run(experimentGuid, input, { ...config, asyncMode: false, streaming: false }),
    );
  }

  async asyncPrompt(
    experimentGuid: string,
    input: PromptInput,
    config?: BaseExperimentPromptConfig,
  ): Promise<AsyncPromptResponse> {
    return asyncAnswer(
      await this.run(experimentGuid, input, { ...config, asyncMode: true, streaming: false }),
    );
  }

  async stream(
    experimentGuid: string,
    input: PromptInput,
    config?: BaseExperimentPromptConfig,
  ): Promise<StreamingPromptResponse> {
    const answer = await this.run(experimentGuid, input, { ...config, streaming: true, asyncMode: false });
    return streamingAnswer(this.http, answer);
  }

  getAsyncPromptResult(resultUrl: string): Promise<AsyncPromptResultResponse> {
    return readResult(this.http, resultUrl);
  }
}
