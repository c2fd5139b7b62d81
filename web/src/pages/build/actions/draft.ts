import type { TemplateMessage, ToolDefinition, VersionFields } from '../../../api';

/** An Action version as the editor holds it: text where the person types, parsed when saved. */
export type Draft = {
  model: string;
  systemMessage: string;
  mode: 'prompt' | 'messages';
  prompt: string;
  messages: TemplateMessage[];
  temperature: string;
  maxResponseLength: string;
  responseFormat: '' | 'text' | 'json_object' | 'json_schema';
  jsonSchema: string;
  tools: string;
  contexts: string[];
  skills: string[];
  /** model_config fields the form has no control for, kept as they were. */
  otherConfig: Record<string, unknown>;
};

export const emptyDraft: Draft = {
  model: 'mock/echo',
  systemMessage: '',
  mode: 'prompt',
  prompt: '',
  messages: [{ role: 'user', content: '' }],
  temperature: '',
  maxResponseLength: '',
  responseFormat: '',
  jsonSchema: '',
  tools: '',
  contexts: [],
  skills: [],
  otherConfig: {},
};

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

export function draftOf(version: VersionFields): Draft {
  const { temperature, max_response_length, response_format, json_schema, ...otherConfig } =
    version.model_config ?? {};
  return {
    model: version.model,
    systemMessage: version.system_message ?? '',
    mode: version.messages && version.messages.length > 0 ? 'messages' : 'prompt',
    prompt: version.prompt ?? '',
    messages: version.messages?.length ? version.messages : [{ role: 'user', content: '' }],
    temperature: temperature === undefined ? '' : String(temperature),
    maxResponseLength: max_response_length === undefined ? '' : String(max_response_length),
    responseFormat: (response_format as Draft['responseFormat']) ?? '',
    jsonSchema: json_schema === undefined ? '' : pretty(json_schema),
    tools: version.tools?.length ? pretty(version.tools) : '',
    contexts: version.contexts ?? [],
    skills: version.skills ?? [],
    otherConfig,
  };
}

/** A field the browser itself refuses before asking the service, named as the API names it. */
export class DraftError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

function parseJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DraftError(field, `not valid JSON (${(error as Error).message})`);
  }
}

function numberOrUndefined(text: string, field: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new DraftError(field, 'must be a number');
  return value;
}

/** The request body's version fields; throws DraftError for JSON or numbers that do not parse. */
export function versionBody(draft: Draft): Omit<VersionFields, 'snippets'> {
  const config: Record<string, unknown> = { ...draft.otherConfig };
  const temperature = numberOrUndefined(draft.temperature, 'model_config.temperature');
  if (temperature !== undefined) config.temperature = temperature;
  const maxLength = numberOrUndefined(draft.maxResponseLength, 'model_config.max_response_length');
  if (maxLength !== undefined) config.max_response_length = maxLength;
  if (draft.responseFormat) config.response_format = draft.responseFormat;
  if (draft.jsonSchema.trim()) config.json_schema = parseJson(draft.jsonSchema, 'model_config.json_schema');
  const tools = draft.tools.trim() ? parseJson(draft.tools, 'tools') : [];
  if (!Array.isArray(tools)) throw new DraftError('tools', 'must be a JSON array of tool definitions');
  return {
    model: draft.model.trim(),
    model_config: config,
    prompt: draft.mode === 'prompt' ? draft.prompt : null,
    messages: draft.mode === 'messages' ? draft.messages : null,
    system_message: draft.systemMessage || null,
    contexts: draft.contexts,
    skills: draft.skills,
    tools: tools as ToolDefinition[],
  };
}

/** The templates of a version, for finding its variables. */
export function templatesOf(fields: Pick<VersionFields, 'prompt' | 'messages' | 'system_message'>): string[] {
  return [fields.system_message ?? '', fields.prompt ?? '', ...(fields.messages ?? []).map((m) => m.content)];
}

/** The service fills this variable from the attached Contexts; a run does not give it. */
export const contextVariable = 'context';
