import type { BaseObject, KluModel, WithPersistedModelData } from './types.js';

/**
 * The Klu SDK's records are camelCase where Klu's API was snake_case, for some fields of some
 * records. A converter renames exactly those fields both ways and passes every other field as it is,
 * so records keep Lectern's extra fields.
 */
export type Wire = Record<string, unknown>;

/**
 * The SDK's own base of a record's converter, for code that converts its records the SDK's way
 * (a subclass names `instanceName` and both directions). Lectern's clients use `Converter` below.
 */
export abstract class ApiConverter<
  Record extends KluModel,
  PersistedRecord extends WithPersistedModelData<Record> = WithPersistedModelData<Record>,
> {
  abstract instanceName: string;
  abstract toApiFormat(instance: Partial<Record>): BaseObject<unknown>;
  abstract fromApiFormat(data: BaseObject<unknown>): PersistedRecord;
}

export type Converter = {
  /** The record's name in messages ("Action with id … was not found."). */
  instanceName: string;
  toWire(record: Wire): Wire;
  fromWire(record: Wire): Wire;
};

/** `renames` maps the SDK's name to the wire's: `{ appId: 'app' }`. */
export function renamingConverter(instanceName: string, renames: Record<string, string> = {}): Converter {
  const entries = Object.entries(renames);
  return {
    instanceName,
    toWire(record) {
      const wire: Wire = { ...record };
      for (const [sdkName, wireName] of entries) {
        const value = wire[sdkName];
        delete wire[sdkName];
        wire[wireName] = value;
      }
      return wire;
    },
    fromWire(record) {
      const sdk: Wire = { ...record };
      for (const [sdkName, wireName] of entries) {
        const value = sdk[wireName];
        delete sdk[wireName];
        sdk[sdkName] = value;
      }
      return sdk;
    },
  };
}

export const appConverter = renamingConverter('App', { appType: 'app_type', modelConfig: 'model_config' });

const actionRenames = renamingConverter('Action', {
  appId: 'app',
  modelId: 'model',
  actionType: 'action_type',
  modelConfig: 'model_config',
  systemMessage: 'system_message',
});

/** An Action of template messages has no `prompt` on the wire: the SDK's type says a string. */
export const actionConverter: Converter = {
  ...actionRenames,
  fromWire(record) {
    const sdk = actionRenames.fromWire(record);
    return { ...sdk, prompt: sdk.prompt ?? '' };
  },
};

export const feedbackConverter = renamingConverter('Feedback', { dataGuid: 'data', metadata: 'meta_data' });

const dataRenames = renamingConverter('Data', {
  actionGuid: 'action_guid',
  metadata: 'meta_data',
  modelProvider: 'model_provider',
  systemMessage: 'system_message',
  fullPromptSent: 'full_prompt_sent',
  numInputTokens: 'num_input_tokens',
  numOutputTokens: 'num_output_tokens',
});

/** A generation: written with `action`/`session` and a `source` of `SDK` unless one is given; read with its feedback converted too. */
export const dataConverter: Converter = {
  instanceName: 'Data',
  toWire(record) {
    const { actionGuid, sessionGuid, metadata, ...rest } = record as Wire & { metadata?: Wire };
    const wire = dataRenames.toWire(rest);
    delete wire.action_guid;
    delete wire.meta_data;
    return {
      ...wire,
      action: actionGuid,
      session: sessionGuid,
      meta_data: { ...metadata, source: metadata?.source || 'SDK' },
    };
  },
  fromWire(record) {
    const sdk = dataRenames.fromWire(record);
    sdk.feedback = ((record.feedback as Wire[] | undefined) ?? []).map(feedbackConverter.fromWire);
    return sdk;
  },
};

export const contextConverter = renamingConverter('Context');

/** Documents keep their wire fields and gain the SDK's names beside them. */
export const contextDocumentConverter: Converter = {
  instanceName: 'ContextDocument',
  toWire(record) {
    const { metaData, ...rest } = record;
    return { ...rest, meta_data: metaData };
  },
  fromWire(record) {
    return {
      ...record,
      metaData: record.meta_data,
      createdAt: record.created_at,
      updatedAt: record.updated_at,
    };
  },
};

export const skillConverter = renamingConverter('Skill', {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
});
export const workspaceConverter = renamingConverter('Workspace', { projectGuid: 'project_guid' });
export const modelConverter = renamingConverter('Model', { providerGuid: 'provider_guid' });
export const providerConverter = renamingConverter('Provider');
export const experimentConverter = renamingConverter('Experiment', {
  appGuid: 'app_guid',
  actionPrimaryGuid: 'action_primary_guid',
  actionSecondaryGuid: 'action_secondary_guid',
});
export const sessionConverter = renamingConverter('Session');
export const fineTuneConverter = renamingConverter('FineTune', {
  openaiFineTuneName: 'openai_finetune_name',
});
export const versionConverter = renamingConverter('Version');

/** The run options the SDK takes in camelCase, as the run routes read them. */
export function runOptionsToWire(options: Wire): Wire {
  const { session, metadataFilter, streaming = false, asyncMode = false, ...rest } = options;
  return { ...rest, streaming, session, async_mode: asyncMode, metadata_filter: metadataFilter };
}

/** A run's answer with the SDK's names for its URLs. */
export function runAnswerFromWire(answer: Wire): Wire {
  const { result_url, feedback_url, streaming_url, ...rest } = answer;
  return { ...rest, resultUrl: result_url, feedbackUrl: feedback_url, streamingUrl: streaming_url };
}
