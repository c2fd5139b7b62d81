// The closed sets of values that fields of the API take, each written once. The zod schemas of
// requests and answers build their enums from these lists, so the OpenAPI document and the client's
// generated route map follow; the services type their columns with them; and the console lists
// them in its pickers through src/contract.ts. Roles are in roles.ts, beside the rights they hold.

/** How a Context search ranks: both signals fused, or one of them. */
export const searchModes = ['hybrid', 'lexical', 'vector'] as const;
export type SearchMode = (typeof searchModes)[number];

/** How a Context or a Context Source cuts a text into Documents (retrieval/splitters.ts). */
export const splitterNames = ['sentence', 'token', 'recursive', 'character', 'markdown'] as const;
export type SplitterName = (typeof splitterNames)[number];

/** An experiment's state: `paused` sends every run to the primary. */
export const experimentStatuses = ['running', 'paused', 'completed'] as const;
export type ExperimentStatus = (typeof experimentStatuses)[number];

/** An evaluation run's state; the last three are final. */
export const evaluationStatuses = ['PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'CANCELLED'] as const;
export type EvaluationStatus = (typeof evaluationStatuses)[number];

/** One item of an evaluation run: waiting, scored, or failed to run. */
export const evaluationItemStatuses = ['pending', 'done', 'failed'] as const;
export type EvaluationItemStatus = (typeof evaluationItemStatuses)[number];

/** The kinds of evaluator (features/quality/evaluators/evaluator-types.ts holds what each computes). */
export const evaluatorTypeNames = [
  'exact_match',
  'contains',
  'regex',
  'json_valid',
  'similarity',
  'llm_judge',
  'latency',
  'cost',
] as const;
export type EvaluatorTypeName = (typeof evaluatorTypeNames)[number];

/** A Workflow block: runs an Action, or shapes the Workflow's output. */
export const workflowBlockTypes = ['action', 'output'] as const;
export type WorkflowBlockType = (typeof workflowBlockTypes)[number];

/** Who an audit record says acted: a person, a key, the instance admin token, or the service itself. */
export const auditActorTypes = ['user', 'key', 'admin', 'system'] as const;
export type AuditActorType = (typeof auditActorTypes)[number];

/** What a webhook can be told about (docs/webhooks.md#events); `*` subscribes to all of them. */
export const webhookEventTypes = [
  'action.version_saved',
  'action.deployed',
  'deployment.refused',
  'evaluation.finished',
  'snippet.version_saved',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** Where one webhook delivery stands: still being tried, answered 2xx, or given up after 24 hours. */
export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** A span's kind, as OTLP names it (docs/traces.md). */
export const spanKindNames = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
export type SpanKindName = (typeof spanKindNames)[number];

/** A span's or a trace's status: a trace is ERROR when any of its spans failed, else its root's. */
export const spanStatusNames = ['UNSET', 'OK', 'ERROR'] as const;
export type SpanStatusName = (typeof spanStatusNames)[number];
