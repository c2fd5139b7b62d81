import {
  buildPromptMessages,
  PromptInputError,
  type BuiltPrompt as TemplateBuiltPrompt,
} from '@lectern/prompt-templates';
import type { PromptMessage } from '../../../core/json-columns.js';
import { ValidationError } from '../../../errors.js';
import type { ActionVersion } from '../../authoring/actions/index.js';
import type { PromptInput } from './schemas.js';

export { contextVariable } from '@lectern/prompt-templates';

export type BuiltPrompt = TemplateBuiltPrompt<PromptMessage>;

type PromptParts = {
  version: Pick<ActionVersion, 'prompt' | 'messages' | 'systemMessage'>;
  input: PromptInput;
  extraMessages?: PromptMessage[];
  history?: PromptMessage[];
  /** Retrieved Context chunks, when the Action has Contexts. */
  contextChunks?: string[];
};

/**
 * Renders an Action version's templates with a run's input into the messages sent to the model. The
 * rules live in @lectern/prompt-templates, so the client's `render` gives the same bytes; here an
 * input that cannot fill them is a 400 naming `input`.
 */
export async function buildPrompt(parts: PromptParts): Promise<BuiltPrompt> {
  try {
    return await buildPromptMessages<PromptMessage>(parts);
  } catch (error) {
    if (error instanceof PromptInputError) throw new ValidationError('input', error.message);
    throw error;
  }
}
