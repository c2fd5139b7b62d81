import type { HttpClient } from '../transport/http.js';
import {
  actionConverter,
  appConverter,
  dataConverter,
  feedbackConverter,
  fineTuneConverter,
  type Wire,
} from './converters.js';
import { NotImplementedError } from './errors.js';
import { Paginator } from './paginator.js';
import { KluResource } from './resource.js';
import type {
  App,
  DataModel,
  FeedbackModel,
  FineTune,
  FineTuneStatusResponse,
  PersistedAction,
  PersistedApp,
  PersistedData,
  PersistedFeedback,
  PersistedFineTune,
} from './types.js';

/** `klu.apps`: Apps, their Actions and their generations. */
export class Apps extends KluResource<PersistedApp, App> {
  readonly paginator: Paginator<PersistedApp>;

  constructor(http: HttpClient) {
    super(http, '/v1/apps/', appConverter);
    this.paginator = new Paginator(
      http,
      this.basePath,
      (record) => appConverter.fromWire(record) as PersistedApp,
      50,
    );
  }

  async getData(appGuid: string): Promise<PersistedData[]> {
    const records = await this.callFor<Wire[]>('App', appGuid, 'GET', `${appGuid}/data`);
    return records.map((record) => dataConverter.fromWire(record) as PersistedData);
  }

  async getActions(appGuid: string): Promise<PersistedAction[]> {
    const records = await this.callFor<Wire[]>('App', appGuid, 'GET', `${appGuid}/actions`);
    return records.map((record) => actionConverter.fromWire(record) as PersistedAction);
  }
}

/** `klu.data`: generations, written and read with the SDK's names. */
export class Data extends KluResource<PersistedData, DataModel> {
  constructor(http: HttpClient) {
    super(http, '/v1/data/', dataConverter);
  }
}

/** `klu.feedback`: feedback on a generation. */
export class Feedback extends KluResource<PersistedFeedback, FeedbackModel> {
  constructor(http: HttpClient) {
    super(http, '/v1/feedback/', feedbackConverter);
  }
}

/** `klu.fineTune`: Lectern trains no models, so the service answers each route `501 not_supported`. */
export class FineTuneClient extends KluResource<PersistedFineTune, FineTune> {
  constructor(http: HttpClient) {
    super(http, '/v1/finetune/', fineTuneConverter);
  }

  /** Refused before any request, as the SDK refuses it. */
  override async create(): Promise<never> {
    throw new NotImplementedError('fineTune.create');
  }

  async process(fineTuneGuid: string, baseModel: string): Promise<FineTune> {
    const answer = await this.callFor('FineTune', fineTuneGuid, 'POST', 'process/', {
      baseModel,
      finetuneGuid: fineTuneGuid,
    });
    return fineTuneConverter.fromWire(answer) as unknown as FineTune;
  }

  async readStatus(fineTuneGuid: string): Promise<FineTuneStatusResponse> {
    const answer = await this.callFor('FineTune', fineTuneGuid, 'GET', `${fineTuneGuid}/status/`);
    return { status: answer.status as string, openaiFineTuneName: answer.openai_finetune_name as string };
  }
}
