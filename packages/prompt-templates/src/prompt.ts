import {
  createRenderBudget,
  MissingVariableError,
  type RenderBudget,
  RenderBudgetError,
  renderTemplate,
  templateVariables,
} from './engine.js';

/** The variable retrieved Context chunks fill; when a template does not use it they go in a system message. */
export const contextVariable = 'context';

/** A message of an Action version: its content is a template. */
export type TemplateMessage = { role: string; content: string };

/** The template fields of an Action version (the API's `prompt`, `messages`, `system_message`). */
export type TemplateVersion = {
  prompt?: string | null;
  messages?: readonly TemplateMessage[] | null;
  systemMessage?: string | null;
};

/**
 * A run's input: an object gives the variables; a string fills a template's only variable, or is the
 * user message when the template has none; an array of messages is appended after the template.
 */
export type PromptInput<Message> = string | readonly Message[] | Record<string, unknown>;

export type PromptParts<Message> = {
  version: TemplateVersion;
  input: PromptInput<Message>;
  extraMessages?: readonly Message[];
  history?: readonly Message[];
  /** Retrieved Context chunks, when the Action has Contexts. */
  contextChunks?: readonly string[];
};

export type BuiltPrompt<Message> = {
  /** Everything sent to the model, in order (the API's `full_prompt_sent`). */
  messages: (Message | TemplateMessage)[];
  /** This run's new turn, replayed before later turns of the same session. */
  turn: (Message | TemplateMessage)[];
};

/** The input cannot fill the templates; the message says why (the service answers it as a 400 naming `input`). */
export class PromptInputError extends Error {}

function templateSources(version: TemplateVersion): string[] {
  return [
    version.systemMessage,
    ...(version.messages ?? []).map((message) => message.content),
    version.prompt,
  ].filter((source): source is string => typeof source === 'string');
}

function variablesFor<Message>(
  input: PromptInput<Message>,
  templateVariableNames: string[],
): { variables: Record<string, unknown>; appended: readonly Message[] } {
  if (Array.isArray(input)) return { variables: {}, appended: input as readonly Message[] };
  if (typeof input !== 'string') return { variables: input as Record<string, unknown>, appended: [] };
  if (templateVariableNames.length === 0)
    return { variables: {}, appended: [{ role: 'user', content: input } as Message] };
  if (templateVariableNames.length === 1)
    return { variables: { [templateVariableNames[0]!]: input }, appended: [] };
  throw new PromptInputError(
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
    if (error instanceof MissingVariableError || error instanceof RenderBudgetError)
      throw new PromptInputError(error.message);
    throw new PromptInputError(`template failed to render: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** Renders an Action version's templates with a run's input into the messages sent to the model. */
export async function buildPromptMessages<Message extends { role: string; content: unknown }>(
  parts: PromptParts<Message>,
): Promise<BuiltPrompt<Message>> {
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
  const prefix: (Message | TemplateMessage)[] = [];
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
  const turn: (Message | TemplateMessage)[] = [];
  if (version.prompt) turn.push({ role: 'user', content: await render(version.prompt, scope, budget) });
  turn.push(...appended, ...(parts.extraMessages ?? []));
  if (prefix.length + turn.length === 0) throw new PromptInputError('the run has no messages to send');
  return { messages: [...prefix, ...(parts.history ?? []), ...turn], turn };
}
