import type { PreparedRun } from './engine.js';
import type { GatewayPayloadResponse } from './responses.js';

/**
 * docs/api.md#runs: what an application sends to the gateway itself — the rendered chat-completions request
 * plus the headers carrying the provider credential and the keys that log the interaction. Secret
 * material: the route marks it `no-store` and nothing logs it.
 */
export function gatewayPayload(run: PreparedRun, serviceApiKey: string): GatewayPayloadResponse {
  const config = run.resolved.version.modelConfig;
  const schema =
    run.request.modelOptions?.jsonSchema ??
    (config.response_format === 'json_schema' ? config.json_schema : undefined);
  const responseFormat = schema
    ? { type: 'json_schema', json_schema: { name: 'response', schema } }
    : config.response_format === 'json_object'
      ? { type: 'json_object' }
      : undefined;
  const tools = run.tools.definitions.map((definition) => ({
    type: 'function' as const,
    function: {
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters ?? { type: 'object', properties: {} },
    },
  }));
  // Only a key the workspace stored itself: the operator's environment keys may be spent by runs
  // (LECTERN_SHARE_ENV_PROVIDER_KEYS) but are never handed to a workspace.
  const apiKey = run.model.credentialOwner === 'workspace' ? run.model.credentials.apiKey : undefined;
  return {
    model: run.model.modelName,
    messages: run.prompt.messages,
    ...(config.temperature !== undefined && { temperature: config.temperature }),
    ...(config.top_p !== undefined && { top_p: config.top_p }),
    ...(config.max_response_length !== undefined && { max_tokens: config.max_response_length }),
    ...(config.presence_penalty !== undefined && { presence_penalty: config.presence_penalty }),
    ...(config.frequency_penalty !== undefined && { frequency_penalty: config.frequency_penalty }),
    ...(config.stop !== undefined && { stop: config.stop }),
    ...(config.seed !== undefined && { seed: config.seed }),
    ...(responseFormat && { response_format: responseFormat }),
    ...(tools.length > 0 && { tools }),
    headers: {
      ...(apiKey && { Authorization: `Bearer ${apiKey}` }),
      'x-svc-api-key': serviceApiKey,
      'x-svc-action-guid': run.resolved.action.id,
      // What the gateway logs the exchange under: the version rendered (a draft has none).
      ...(!run.resolved.draft && { 'x-svc-action-version': String(run.resolved.version.version) }),
      ...(run.resolved.environment && { 'x-svc-action-environment': run.resolved.environment }),
    },
  };
}
