import { Liquid, type Template } from 'liquidjs';

/**
 * Prompt templates are LiquidJS with the dangerous parts off: no file system (`templates: {}` makes
 * every include/render/layout miss), own properties only (no `constructor` walks), strict variables
 * (except in `{% if %}`, so optional sections work), and limits on parse size, render time and
 * memory so a template cannot stall the server. Variable values are data: they are never rendered.
 */
export const templateEngine = new Liquid({
  templates: {},
  strictVariables: true,
  lenientIf: true,
  strictFilters: true,
  ownPropertyOnly: true,
  parseLimit: 200_000,
  renderLimit: 1_000,
  memoryLimit: 10_000_000,
});

/** The parse error of a template, or undefined when it parses. */
export function templateParseError(source: string): string | undefined {
  try {
    templateEngine.parse(source);
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

const parsedTemplates = new Map<string, Template[]>();
const parsedTemplateLimit = 2_000;

/** Parsed once per distinct source: every run of an Action renders the same few templates. */
function parsed(source: string): Template[] {
  let templates = parsedTemplates.get(source);
  if (!templates) {
    templates = templateEngine.parse(source);
    if (parsedTemplates.size >= parsedTemplateLimit) {
      parsedTemplates.delete(parsedTemplates.keys().next().value!);
    }
    parsedTemplates.set(source, templates);
  }
  return templates;
}

/** The top-level variable names a template reads (`{{ user.name }}` → `user`). */
export function templateVariables(source: string): string[] {
  return templateEngine.globalVariablesSync(parsed(source));
}

/** Thrown for a variable the template needs and the input does not give. */
export class MissingVariableError extends Error {
  constructor(readonly variable: string) {
    super(`missing template variable "${variable}"`);
  }
}

export async function renderTemplate(source: string, variables: Record<string, unknown>): Promise<string> {
  try {
    return await templateEngine.render(parsed(source), variables);
  } catch (error) {
    const undefinedVariable = /undefined variable: ([^,]+)/.exec((error as Error).message);
    if (undefinedVariable) throw new MissingVariableError(undefinedVariable[1]!);
    throw error;
  }
}
