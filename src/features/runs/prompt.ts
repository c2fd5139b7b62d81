import type { PromptMessage } from '../../core/json-columns.js';
import { ValidationError } from '../../errors.js';
import {
  createRenderBudget,
  MissingVariableError,
  type RenderBudget,
  RenderBudgetError,
  renderTemplate,
  templateVariables,
} from '../../llm/templates.js';
import type { ActionVersion } from '../actions/index.js';
import type { RunInput } from './schemas.js';

/** The variable retrieved Context chunks fill; when a template does not use it they go in a system message. */
export const contextVariable = 'context';

export type BuiltPrompt = {
  /** Everything sent to the model, in order (the API's `full_prompt_sent`). */
  messages: PromptMessage[];
  /** This run's new turn, replayed before later turns of the same session. */
  turn: PromptMessage[];
};

type PromptParts = {
  version: Pick<ActionVersion, 'prompt' | 'messages' | 'systemMessage'>;
  input: RunInput;
  extraMessages?: PromptMessage[];
  history?: PromptMessage[];
  /** Retrieved Context chunks, when the Action has Contexts. */
  contextChunks?: string[];
};

function templateSources(version: PromptParts['version']): string[] {
  return [
    version.systemMessage,
    ...(version.messages ?? []).map((message) => message.content),
    version.prompt,
  ].filter((source): source is string => typeof source === 'string');
}

/**
 * docs/api.md#actions: an object input gives the variables; a string fills a template's only variable, or is
 * the user message when the template has none; an array of messages is appended after the template.
 */
function variablesFor(input: RunInput, templateVariableNames: string[]) {
  if (Array.isArray(input)) return { variables: {}, appended: input as PromptMessage[] };
  if (typeof input !== 'string') return { variables: input, appended: [] };
  if (templateVariableNames.length === 0)
    return { variables: {}, appended: [{ role: 'user', content: input }] };
  if (templateVariableNames.length === 1)
    return { variables: { [templateVariableNames[0]!]: input }, appended: [] };
  throw new ValidationError(
    'input',
    `a string fills a template with exactly one variable; this one has ${templateVariableNames.length} (${templateVariableNames.join(', ')}): send an object`,
  );
}

async function render(
  source: string,
  variables: Record<string, unknown>,
  budget: RenderBudget,
): Promise<string> {
  try {
    return await renderTemplate(source, variables, budget);
  } catch (error) {
    if (error instanceof MissingVariableError) throw new ValidationError('input', error.message);
    if (error instanceof RenderBudgetError) throw new ValidationError('input', error.message);
    throw new ValidationError(
      'input',
      `template failed to render: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

/** Renders an Action version's templates with a run's input into the messages sent to the model. */
export async function buildPrompt(parts: PromptParts): Promise<BuiltPrompt> {
  const { version } = parts;
  const sources = templateSources(version);
  const usedVariables = [...new Set(sources.flatMap(templateVariables))];
  const usesContext = usedVariables.includes(contextVariable);
  const { variables, appended } = variablesFor(
    parts.input,
    usedVariables.filter((name) => name !== contextVariable),
  );
  const chunks = parts.contextChunks ?? [];
  const scope: Record<string, unknown> = usesContext
    ? { ...variables, [contextVariable]: chunks.join('\n\n') }
    : variables;

  const budget = createRenderBudget();
  const prefix: PromptMessage[] = [];
  if (version.systemMessage)
    prefix.push({ role: 'system', content: await render(version.systemMessage, scope, budget) });
  if (!usesContext && chunks.length > 0) {
    prefix.push({
      role: 'system',
      content: `Use the following context to answer.\n\n${chunks.join('\n\n')}`,
    });
  }
  for (const message of version.messages ?? []) {
    prefix.push({ role: message.role, content: await render(message.content, scope, budget) });
  }
  const turn: PromptMessage[] = [];
  if (version.prompt) turn.push({ role: 'user', content: await render(version.prompt, scope, budget) });
  turn.push(...appended, ...(parts.extraMessages ?? []));
  if (prefix.length + turn.length === 0)
    throw new ValidationError('input', 'the run has no messages to send');
  return { messages: [...prefix, ...(parts.history ?? []), ...turn], turn };
}
