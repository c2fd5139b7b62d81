import { buildPromptMessages, PromptInputError } from '@lectern/prompt-templates';
import type { Schemas } from '../api/api-types.js';
import { BadRequestError } from '../transport/errors.js';

/** A deployed version as the service answers it (`GET /v1/prompts/{guidOrSlug}`). */
export type DeployedPromptRecord = Schemas['DeployedPrompt'];

/**
 * A prompt snapshot as `lectern prompts export` writes it: this package's typed view of the format
 * @lectern/prompt-templates reads and writes (that package is bundled in, so its types are not shipped).
 */
export type PromptSnapshot = {
  format: 'lectern-prompts';
  version: 1;
  exported_at: string;
  environment: string | null;
  prompts: DeployedPromptRecord[];
};

/** A message of a rendered prompt: what is sent to the model. */
export type PromptMessage = { role: string; content: unknown };

/** A version rendered with variables: the messages and the model settings to send them with. */
export type RenderedPrompt = {
  messages: PromptMessage[];
  model: string;
  modelConfig: Record<string, unknown>;
  tools: DeployedPromptRecord['tools'];
  /** Which version made them, for `logGeneration`. */
  action: string;
  version: number;
  environment: string;
};

export type RenderOptions = {
  /** Context chunks to fill `{{context}}` with (the service retrieves them itself on a run). */
  contextChunks?: string[];
  /** Messages after the template's (as a run's `messages`). */
  messages?: PromptMessage[];
};

/**
 * A deployed prompt from the client's cache. `render` uses the service's own template rules
 * (@lectern/prompt-templates: the same LiquidJS settings and input rules), so its messages are
 * byte for byte what a run of this version with the same input sends.
 */
export class Prompt {
  constructor(readonly record: DeployedPromptRecord) {}

  get action(): string {
    return this.record.action;
  }
  get slug(): string {
    return this.record.slug;
  }
  get environment(): string {
    return this.record.environment;
  }
  get version(): number {
    return this.record.version;
  }
  get model(): string {
    return this.record.model;
  }

  /** Renders with a run's input: an object of variables, a string (the only variable, or the user message), or messages. */
  async render(
    input: Record<string, unknown> | string | PromptMessage[] = {},
    options: RenderOptions = {},
  ): Promise<RenderedPrompt> {
    try {
      const built = await buildPromptMessages<PromptMessage>({
        version: {
          prompt: this.record.prompt,
          messages: this.record.messages,
          systemMessage: this.record.system_message,
        },
        input,
        extraMessages: options.messages,
        contextChunks: options.contextChunks,
      });
      return {
        messages: built.messages,
        model: this.record.model,
        modelConfig: this.record.model_config,
        tools: this.record.tools,
        action: this.record.action,
        version: this.record.version,
        environment: this.record.environment,
      };
    } catch (error) {
      // Worded as the service words it for a run of this version: a 400 naming `input`.
      if (error instanceof PromptInputError) {
        const message = `input: ${error.message}`;
        throw new BadRequestError(message, {
          status: 400,
          code: 'validation_error',
          field: 'input',
          serverMessage: message,
        });
      }
      throw error;
    }
  }
}
