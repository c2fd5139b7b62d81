import { z } from 'zod';
import { promptMessage } from '../../../core/message-schemas.js';
import { metadataFilter } from '../../../core/metadata-filter.js';
import { ValidationError } from '../../../errors.js';
import { type VersionChanges, versionFromWire } from '../../authoring/actions/index.js';
import { modelOptions, promptInput, type RunBody } from './schemas.js';

/**
 * A run as the run engine takes it, in the domain's names: what fills the prompt, which version runs,
 * what retrieval and the model are given. Every field but a draft is plain data, so an async run's
 * job carries it as it is (`queuedRunInput` is the job payload's schema; a queued run never has a draft).
 */
export const queuedRunInput = z.object({
  input: promptInput,
  /** Messages after the prompt's own. */
  messages: z.array(promptMessage).optional(),
  cache: z.boolean().optional(),
  environment: z.string().optional(),
  version: z.number().int().optional(),
  /**
   * The run's metadata: stored with its generation, and the filter of which Contexts' Documents
   * retrieval may answer with (docs/api.md#metadata-filters).
   */
  metadata: metadataFilter.optional(),
  /** The hosted original's free-text filter of retrieval. */
  legacyFilter: z.string().nullable().optional(),
  sessionId: z.string().nullable().optional(),
  /** The application's end user (`ext_user_id`), who never signs in. */
  endUser: z.string().nullable().optional(),
  modelOptions: modelOptions.optional(),
  /** Whether the provider may keep the call (OpenAI's `store`). */
  store: z.boolean().optional(),
  /** False: the model's tool calls are answered, not executed (`do_not_execute_tool_calls`). */
  executeToolCalls: z.boolean().optional(),
});

export type QueuedRunInput = z.infer<typeof queuedRunInput>;

export type RunInput = QueuedRunInput & {
  /** Version fields run over the latest version without being saved (the console's playground). */
  draft?: VersionChanges;
};

/** How a run answers: at once with its text, as a stream URL, or with a result URL to poll. */
export type RunMode = 'sync' | 'stream' | 'async';

type RunFieldsBody = Omit<RunBody, 'draft' | 'async_mode' | 'streaming'> & Partial<Pick<RunBody, 'draft'>>;

/** A run request's body (docs/api.md#runs) in the domain's names; the mode is read by `runModeOf`. */
export function runInputFromWire(body: RunFieldsBody): RunInput {
  return {
    input: body.input,
    messages: body.messages,
    cache: body.cache,
    environment: body.environment,
    version: body.version,
    metadata: body.metadata,
    legacyFilter: body.filter,
    sessionId: body.session,
    endUser: body.extUserId,
    modelOptions: body.modelOptions,
    store: body.store,
    executeToolCalls:
      body.do_not_execute_tool_calls === undefined ? undefined : !body.do_not_execute_tool_calls,
    ...(body.draft && { draft: versionFromWire(body.draft) }),
  };
}

/** docs/api.md#runs: streaming wins over async_mode. An async run is pinned to a saved version. */
export function runModeOf(body: Pick<RunBody, 'streaming' | 'async_mode' | 'draft'>): RunMode {
  if (body.streaming) return 'stream';
  if (!body.async_mode) return 'sync';
  if (body.draft)
    throw new ValidationError('draft', 'runs now, not in the background: give no async_mode with a draft');
  return 'async';
}
