import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Pagination } from '../../http/pagination.js';
import type { PromptMessage } from '../../platform/database/schema.js';
import type { FeedbackRepository, FeedbackRow } from '../feedback/repository.js';
import { presentFeedback } from '../feedback/service.js';
import type { GenerationRepository, GenerationRow, NewGeneration } from './repository.js';
import type { LogDataInput } from './schemas.js';

/** The data record of CONTRACT §6. */
export function presentGeneration(row: GenerationRow) {
  return {
    guid: row.id,
    action: row.actionId,
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
    source: row.source,
    cached: row.cached,
    experiment: row.experimentId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type GenerationRecord = ReturnType<typeof presentGeneration>;

/** What the data service needs to know about Actions and sessions, without depending on their services. */
export type DataOwners = {
  requireAction(workspaceId: string, actionId: string): Promise<void>;
  requireSession(workspaceId: string, sessionId: string, actionId?: string): Promise<void>;
};

export function createDataService(
  repository: GenerationRepository,
  feedback: FeedbackRepository,
  owners: DataOwners,
) {
  /** A generation made elsewhere, checked against the workspace (`prefix` names the record in a batch). */
  async function loggedRow(workspaceId: string, input: LogDataInput, prefix = ''): Promise<NewGeneration> {
    if (!prefix) await owners.requireAction(workspaceId, input.action);
    if (input.session) {
      await owners.requireSession(workspaceId, input.session, input.action).catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new ValidationError('no such session', `${prefix}session`);
        throw error;
      });
    }
    return {
      id: randomUUID(),
      workspaceId,
      actionId: input.action,
      sessionId: input.session ?? null,
      input: input.input,
      output: input.output,
      fullPromptSent: (input.full_prompt_sent ?? []) as PromptMessage[],
      model: input.model ?? null,
      modelProvider: input.model_provider ?? null,
      numInputTokens: input.num_input_tokens ?? null,
      numOutputTokens: input.num_output_tokens ?? null,
      latencyMs: input.latency_ms ?? null,
      extUserId: input.ext_user_id ?? null,
      metadata: input.metadata ?? {},
      source: input.source ?? 'api',
    };
  }

  return {
    /** Stores a complete generation; every run mode and the log route end here. */
    async store(row: NewGeneration): Promise<void> {
      await repository.insert(row);
    },

    async find(workspaceId: string, id: string): Promise<GenerationRow | undefined> {
      return repository.find(workspaceId, id);
    },

    /** The record with its non-deleted feedback. */
    async get(workspaceId: string, id: string) {
      const row = await repository.find(workspaceId, id);
      if (!row) throw new NotFoundError('Data not found');
      const rows: FeedbackRow[] = await feedback.listForGenerations(workspaceId, [id]);
      return { ...presentGeneration(row), feedback: rows.map(presentFeedback) };
    },

    async log(workspaceId: string, input: LogDataInput): Promise<GenerationRecord> {
      const row = await loggedRow(workspaceId, input);
      await repository.insert(row);
      return presentGeneration((await repository.find(workspaceId, row.id))!);
    },

    /**
     * `POST /v1/data/batch` (the gateway ships its log this way): every record is checked first and all
     * are stored in one statement, or none. An Action the key cannot see is a 400 naming the record.
     */
    async logMany(workspaceId: string, inputs: LogDataInput[]): Promise<{ data: { guid: string }[] }> {
      const knownActions = new Set<string>();
      const rows: NewGeneration[] = [];
      for (const [index, input] of inputs.entries()) {
        if (!knownActions.has(input.action)) {
          await owners.requireAction(workspaceId, input.action).catch((error: unknown) => {
            if (error instanceof NotFoundError)
              throw new ValidationError('no such Action', `records.${index}.action`);
            throw error;
          });
          knownActions.add(input.action);
        }
        rows.push(await loggedRow(workspaceId, input, `records.${index}.`));
      }
      await repository.insertMany(rows);
      return { data: rows.map((row) => ({ guid: row.id })) };
    },

    async listForAction(workspaceId: string, actionId: string, pagination: Pagination) {
      await owners.requireAction(workspaceId, actionId);
      const { rows, total } = await repository.listByAction(
        workspaceId,
        actionId,
        pagination.skip,
        pagination.limit,
      );
      return { rows: rows.map(presentGeneration), total };
    },

    async listForSession(workspaceId: string, sessionId: string, pagination: Pagination) {
      await owners.requireSession(workspaceId, sessionId);
      const { rows, total } = await repository.listBySession(
        workspaceId,
        sessionId,
        pagination.skip,
        pagination.limit,
      );
      return { rows: rows.map(presentGeneration), total };
    },

    sessionTurns: repository.sessionTurns,
    findByCacheKey: repository.findByCacheKey,
  };
}

export type DataService = ReturnType<typeof createDataService>;
