import { type Feedback, presentFeedback } from '../feedback/index.js';
import type {
  GenerationResponse,
  GenerationWithFeedbackResponse,
  ListedGenerationResponse,
  StatisticsResponse,
} from './responses.js';
import type { LogDataInput, UpdateDataInput } from './schemas.js';
import type { Generation, GenerationChanges, LoggedGeneration } from './service.js';
import type { Statistics } from './statistics.js';

/** A generation as the API answers it. */
export function presentGeneration(row: Generation): GenerationResponse {
  return {
    guid: row.id,
    action: row.actionId,
    // The official SDK reads these names (docs/sdk-compatibility.md).
    action_guid: row.actionId,
    trace_id: row.traceId,
    span_id: row.spanId,
    session: row.sessionId,
    input: row.input,
    output: row.output,
    full_prompt_sent: row.fullPromptSent,
    model: row.model,
    model_provider: row.modelProvider,
    num_input_tokens: row.numInputTokens,
    num_output_tokens: row.numOutputTokens,
    latency_ms: row.latencyMs,
    cost: row.cost,
    environment: row.environment,
    version: row.version,
    ext_user_id: row.extUserId,
    metadata: row.metadata,
    meta_data: row.metadata,
    source: row.source,
    cached: row.cached,
    experiment: row.experimentId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A record in the workspace's log (`GET /v1/data`): how many (non-deleted) feedback records it has. */
export function presentListedGeneration(
  row: Generation & { feedbackCount: number },
): ListedGenerationResponse {
  return { ...presentGeneration(row), feedback_count: row.feedbackCount };
}

/** A generation with its feedback (`GET /v1/data/{guid}`). */
export function presentGenerationWithFeedback(found: {
  generation: Generation;
  feedback: Feedback[];
  scores: Record<string, number | null>;
}): GenerationWithFeedbackResponse {
  return {
    ...presentGeneration(found.generation),
    feedback: found.feedback.map(presentFeedback),
    // Present once a monitor scored it: a generation no monitor sampled has no scores.
    ...(Object.keys(found.scores).length > 0 && { scores: found.scores }),
  };
}

const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** `GET /v1/statistics`: the dashboard's series. */
export function presentStatistics(statistics: Statistics): StatisticsResponse {
  return {
    from: statistics.from.toISOString(),
    to: statistics.to.toISOString(),
    days: statistics.daily.map((day) => ({
      day: day.day,
      runs: day.runs,
      input_tokens: day.inputTokens,
      output_tokens: day.outputTokens,
      cost: day.cost,
      feedback_rate: rate(day.withFeedback, day.runs),
      good_feedback: day.goodFeedback,
      bad_feedback: day.badFeedback,
      errors: day.errors,
    })),
    actions: statistics.actions.map((action) => ({
      action: action.actionId,
      runs: action.runs,
      latency_p50_ms: action.latencyP50Ms,
      latency_p95_ms: action.latencyP95Ms,
      feedback_rate: rate(action.withFeedback, action.runs),
      good_feedback: action.goodFeedback,
      bad_feedback: action.badFeedback,
    })),
    scores: statistics.scores.map((score) => ({
      day: score.day,
      evaluator: score.evaluatorId,
      name: score.name,
      mean: Math.round(score.mean * 1e6) / 1e6,
      n: score.n,
    })),
  };
}

/** `PUT /v1/data/{guid}` as changes; the official SDK's names (`latency`, `meta_data`) are read here too. */
export function generationChangesFromWire(body: UpdateDataInput): GenerationChanges {
  return {
    actionId: body.action,
    sessionId: body.session,
    input: body.input,
    output: body.output,
    promptSent: body.full_prompt_sent,
    systemMessage: body.system_message,
    numInputTokens: body.num_input_tokens,
    numOutputTokens: body.num_output_tokens,
    model: body.model,
    modelProvider: body.model_provider,
    latencyMs: body.latency_ms ?? body.latency,
    extUserId: body.ext_user_id,
    metadata: body.metadata ?? body.meta_data,
    source: body.source,
  };
}

/** `POST /v1/data` (and each record of a batch) as a generation to log. */
export function loggedGenerationFromWire(body: LogDataInput): LoggedGeneration {
  return {
    ...generationChangesFromWire(body),
    actionId: body.action,
    version: body.version,
    environment: body.environment,
    input: body.input,
    output: body.output,
  };
}
