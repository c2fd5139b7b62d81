/**
 * The record and option types of the Klu SDK's interface, by the SDK's names, so code typed against
 * `@kluai/core` compiles against this client unchanged. Records also carry Lectern's own fields
 * (the index signature), which the SDK's types did not name.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the SDK's marker type for its records.
export interface KluModel {}
export type BaseObject<T> = { [key: string]: T };
export type WithPersistedModelData<T extends KluModel> = T & {
  id?: string;
  guid: string;
  createdAt: string;
  updatedAt: string;
} & BaseObject<unknown>;
/**
 * A run's input: a string, or the template's variables. `any`, as the SDK's: its users pass
 * `input as Object`, which no narrower index signature accepts.
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's own type, which its callers rely on.
export type PromptInput = string | BaseObject<any>;

export enum TaskStatusEnum {
  PENDING = 'PENDING',
  STARTED = 'STARTED',
  RETRY = 'RETRY',
  FAILURE = 'FAILURE',
  SUCCESS = 'SUCCESS',
}

export enum DataSourceType {
  SDK = 'SDK',
  API = 'API',
  BACK_FILL = 'backfill',
}

export interface FeedbackModel extends KluModel {
  type?: string;
  value?: string;
  source?: string;
  dataGuid: string;
  deleted?: boolean;
  createdById?: string;
  metadata?: BaseObject<unknown>;
}
export type PersistedFeedback = WithPersistedModelData<FeedbackModel> & {
  dataId?: string;
  workspaceId?: string;
};

export interface DataModel extends KluModel {
  input?: string;
  output?: string;
  actionGuid?: string;
  sessionGuid?: string;
  fullPromptSent?: string;
  numOutputTokens?: number;
  numInputTokens?: number;
  source?: string;
  model?: string;
  modelProvider?: string;
  systemMessage?: string;
  latency?: number;
  metadata?: BaseObject<unknown>;
  feedback?: PersistedFeedback[];
}
export type PersistedData = WithPersistedModelData<DataModel>;

export interface App extends KluModel {
  name: string;
  appType?: string;
  deleted?: boolean;
  description?: string;
  modelConfig?: object;
}
export type PersistedApp = WithPersistedModelData<App> & { enabled?: boolean; createdById?: string };

export interface ModelConfig {
  topP?: number;
  temperature?: number;
  maxResponseLength?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequence?: string;
  numRetries?: number;
  timeout?: number;
  seed?: number;
  responseFormat?: string;
  logitBias?: unknown[];
}
/** An Action as the SDK reads it: every field the SDK's type has, typed as strictly. */
export interface Action extends KluModel {
  name: string;
  /** The template; `''` for an Action of template messages. */
  prompt: string;
  systemMessage?: string;
  appId: string;
  modelId: string;
  actionType: string;
  description?: string;
  experimentId?: number;
  modelConfig?: ModelConfig;
}
/** What `actions.create` takes: the SDK's Action, with what Lectern fills in itself left optional. */
export type NewAction = Omit<Action, 'prompt' | 'actionType' | 'modelConfig'> & {
  prompt?: string;
  actionType?: string;
  modelConfig?: ModelConfig | BaseObject<unknown>;
};
export type PersistedAction = WithPersistedModelData<Action>;
export interface Version extends KluModel {
  guid?: string;
  version?: number;
  createdById?: string;
  createdAt?: string;
  updatedAt?: string;
  environment?: string;
}

export interface ActionPromptConfig {
  filter?: string;
  session?: string;
  indices?: number[];
  environment?: string;
  metadataFilter?: BaseObject<unknown>;
}
export interface ActionRunConfig extends ActionPromptConfig {
  streaming?: boolean;
  asyncMode?: boolean;
}
/**
 * A run's answer. No index signature: `Omit<PromptResponse, …>`, which the SDK's types and their
 * users build, would turn every named field into `unknown`. Lectern's extra fields are named.
 */
export interface PromptResponse {
  msg: string;
  resultUrl?: string;
  data_guid?: string;
  feedbackUrl?: string;
  streamingUrl?: string;
  /** Lectern's: the messages sent to the model (`null` while an async run has not started). */
  full_prompt_sent?: unknown[] | null;
  /** Lectern's: the run's cost in USD, when the model's price is known. */
  cost?: { input: number; output: number; generation: number };
  /** Lectern's: whether the answer is a stream. */
  streaming?: boolean;
}
export type SyncPromptResponse = Omit<PromptResponse, 'resultUrl' | 'streamingUrl'>;
export type StreamingPromptResponse = SyncPromptResponse & {
  streamingData: AsyncGenerator<string | undefined>;
};
export type AsyncPromptResponse = Omit<PromptResponse, 'streamingUrl'> & { resultUrl: string };
export interface AsyncPromptResultResponse {
  msg: string;
  status: TaskStatusEnum | string;
}
export interface PlaygroundPromptConfig {
  toolIds?: number[];
  indexIds?: number[];
  values?: BaseObject<unknown>;
  modelConfig?: ModelConfig;
}

export interface Skill extends KluModel {
  name?: string;
  metadata?: unknown;
  createdAt?: string;
  updatedAt?: string;
}

export interface Context extends KluModel {
  name: string;
  description?: string;
  type?: string;
  filter?: string;
  loader?: string;
}
export interface FileData {
  filePath: string;
  fileName: string;
}
export type ContextPost = Context & { files?: string[]; fileData?: FileData[] };
export type PersistedContext = WithPersistedModelData<Context> & {
  processed?: boolean;
  metaData?: BaseObject<unknown>[];
};
export interface ContextDocument {
  content: string;
  filter?: string;
  metaData?: BaseObject<unknown> | unknown[];
  score?: number;
  [field: string]: unknown;
}
export type PersistedContextDocument = WithPersistedModelData<ContextDocument> & {
  content: string;
  embedding?: number[];
};
export type UpdateContextDocument = Omit<PersistedContextDocument, 'content' | 'createdAt' | 'updatedAt'>;
export interface AddContextDocumentResponse {
  docs: string[];
  status: string;
  [field: string]: unknown;
}
/** What `contexts.prompt` answers: a run's answer. */
export type DocumentPromptResponse = PromptResponse;
export interface PreSignUrlPostData {
  url: string;
  objectUrl: string;
  fields: Record<string, string>;
}

export interface Model extends KluModel {
  llm: string;
  default?: boolean;
  provider: string;
}
export interface CreateModelData extends Model {
  key?: string;
  url?: string;
}
export type PersistedModel = WithPersistedModelData<Model> & { createdById?: string; providerGuid: string };
export interface Provider extends KluModel {
  name?: string;
  url?: string;
  default?: boolean;
  nickname?: string;
}
export type PersistedProvider = WithPersistedModelData<Provider> & { createdById?: string };
export type ProviderWithModels = PersistedProvider & { models: PersistedModel[] };

export interface Workspace extends KluModel {
  name: string;
  slug: string;
}
export type PersistedWorkspace = WithPersistedModelData<Workspace> & {
  projectGuid?: string;
  createdById?: string;
};

export interface Experiment extends KluModel {
  name: string;
  appGuid: string;
  actionPrimaryGuid: string;
  actionSecondaryGuid: string;
}
export type PersistedExperiment = WithPersistedModelData<Experiment> & { status?: string };
export type ExperimentUpdateData = Partial<Omit<Experiment, 'appGuid'>>;
export interface BaseExperimentPromptConfig {
  filter?: string;
  session?: string;
  indices?: number[];
  metadataFilter?: BaseObject<unknown>;
  forceAction?: string;
}
export interface ExperimentPromptConfig extends BaseExperimentPromptConfig {
  streaming?: boolean;
  asyncMode?: boolean;
}

export interface Session extends KluModel {
  name?: string;
  extUserId?: string;
  action: string;
}
export type PersistedSession = WithPersistedModelData<Session> & { createdById?: string };
export interface SessionsListParams {
  action?: string;
  extUserId?: string;
}

export interface FineTune extends KluModel {
  name: string;
  openaiFineTuneName?: string;
}
export type PersistedFineTune = WithPersistedModelData<FineTune> & {
  appId?: string;
  datasetId?: string;
  status?: string;
};
export interface FineTuneStatusResponse {
  status: string;
  openaiFineTuneName?: string;
}

/** What `updateProvider` and `deleteProvider` answer: the SDK handed back axios's answer; this has its fields. */
export type RawAnswer<Body> = {
  data: Body;
  status: number;
  statusText: string;
  headers: Record<string, string>;
};
