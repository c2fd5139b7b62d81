import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Pagination } from '../../http/pagination.js';
import type { PromptMessage } from '../../platform/database/schema.js';
import type { FeedbackRepository, FeedbackRow } from '../feedback/repository.js';
import { presentFeedback } from '../feedback/service.js';
import type { GenerationRepository, GenerationRow, NewGeneration } from './repository.js';
import type { LogDataInput, UpdateDataInput } from './schemas.js';

/** The data record of CONTRACT §6. */
export function presentGeneration(row: GenerationRow) {
  return {
    guid: row.id,
    action: row.actionId,
    // The official SDK reads these names (CONTRACT §12).
    action_guid: row.actionId,
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

export type GenerationRecord = ReturnType<typeof presentGeneration>;

/** What the data service needs to know about its owners, without depending on their services. */
export type DataOwners = {
  requireApp(workspaceId: string, appId: string): Promise<void>;
  requireAction(workspaceId: string, actionId: string): Promise<void>;
  requireSession(workspaceId: string, sessionId: string, actionId?: string): Promise<void>;
};

type LoggedFields = Omit<UpdateDataInput, 'action' | 'session'>;

/** The prompt sent, with the official SDK's separate `system_message` as its first message. */
function promptSent(messages: PromptMessage[] | string, systemMessage: string | null | undefined) {
  const sent: PromptMessage[] =
    typeof messages === 'string' ? [{ role: 'user', content: messages }] : messages;
  if (!systemMessage) return sent;
  const rest = sent[0]?.role === 'system' ? sent.slice(1) : sent;
  return [{ role: 'system', content: systemMessage }, ...rest];
}

/** The columns a logged or updated generation's fields set; fields not given set nothing. */
function loggedColumns(input: LoggedFields, storedPrompt: PromptMessage[] = []): Partial<NewGeneration> {
  const columns: Partial<NewGeneration> = {};
  if (input.input !== undefined) columns.input = input.input;
  if (input.output !== undefined) columns.output = input.output;
  if (input.full_prompt_sent !== undefined || input.system_message !== undefined)
    columns.fullPromptSent = promptSent(input.full_prompt_sent ?? storedPrompt, input.system_message);
  if (input.num_input_tokens !== undefined) columns.numInputTokens = input.num_input_tokens;
  if (input.num_output_tokens !== undefined) columns.numOutputTokens = input.num_output_tokens;
  if (input.model !== undefined) columns.model = input.model;
  if (input.model_provider !== undefined) columns.modelProvider = input.model_provider;
  const latency = input.latency_ms ?? input.latency;
  if (latency !== undefined) columns.latencyMs = latency;
  if (input.ext_user_id !== undefined) columns.extUserId = input.ext_user_id;
  const metadata = input.metadata ?? input.meta_data;
  if (metadata !== undefined) columns.metadata = metadata ?? {};
  if (input.source !== undefined) columns.source = input.source;
  return columns;
}

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
      fullPromptSent: [],
      source: 'api',
      ...loggedColumns(input),
      id: randomUUID(),
      workspaceId,
      actionId: input.action,
      sessionId: input.session ?? null,
      output: input.output,
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

    /** `PUT /v1/data/{guid}`: the given fields replace the stored ones. */
    async update(workspaceId: string, id: string, input: UpdateDataInput): Promise<GenerationRecord> {
      const stored = await repository.find(workspaceId, id);
      if (!stored) throw new NotFoundError('Data not found');
      if (input.action !== undefined && input.action !== stored.actionId)
        throw new ValidationError('a generation stays with the Action that made it', 'action');
      if (input.session !== undefined && input.session !== stored.sessionId)
        throw new ValidationError('a generation stays in its session', 'session');
      const updated = await repository.update(workspaceId, id, loggedColumns(input, stored.fullPromptSent));
      if (!updated) throw new NotFoundError('Data not found');
      return presentGeneration(updated);
    },

    /** Deletes a generation with its feedback; answers the record as it was. */
    async remove(workspaceId: string, id: string): Promise<GenerationRecord> {
      const removed = await repository.remove(workspaceId, id);
      if (!removed) throw new NotFoundError('Data not found');
      return presentGeneration(removed);
    },

    /** Generations of an App's Actions, newest first. */
    async listForApp(workspaceId: string, appId: string, pagination: Pagination) {
      await owners.requireApp(workspaceId, appId);
      const { rows, total } = await repository.listByApp(
        workspaceId,
        appId,
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
