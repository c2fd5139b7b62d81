import { Liquid, type Template } from 'liquidjs';

/*
 * Prompt templates are LiquidJS with the dangerous parts off: no file system (`templates: {}` makes
 * every include/render/layout miss; an `include` names a snippet and is resolved before a template
 * is parsed, see includes.ts), own properties only (no `constructor` walks), strict variables
 * (except in `{% if %}`, so optional sections work), and limits on parse size, render time and
 * memory so a template cannot stall the server. Variable values are data: they are never rendered.
 */
/**
 * Milliseconds and characters all the templates of one run may spend together. Rendering holds the
 * thread, so half a second keeps every other request answered well within a second.
 */
export const runRenderTimeMs = 500;
export const runRenderMemory = 10_000_000;

export const templateEngine = new Liquid({
  templates: {},
  strictVariables: true,
  lenientIf: true,
  strictFilters: true,
  ownPropertyOnly: true,
  parseLimit: 200_000,
  renderLimit: runRenderTimeMs,
  memoryLimit: runRenderMemory,
});

// Templates never read files: the tags that would are refused when a template is parsed, so a
// template naming a file is a 400 when it is saved, not a failure of every later run. An include
// left in a template here was not resolved from the workspace's snippets.
for (const fileTag of ['include', 'render', 'layout']) {
  templateEngine.registerTag(fileTag, {
    parse() {
      throw new Error(
        fileTag === 'include'
          ? '{% include %} names a snippet, which is put in when the version is saved: this template was not resolved'
          : `{% ${fileTag} %} is not available: templates cannot read files`,
      );
    },
    // Never reached: parse() refuses the tag.
    render() {
      return '';
    },
  });
}

/**
 * One budget for every template of a run: an Action may have hundreds of messages, and a limit per
 * template would let one run render for minutes on the main thread.
 */
export type RenderBudget = { renderingLeftMs: number; memoryLeft: number; sinceYieldMs: number };

export function createRenderBudget(): RenderBudget {
  return { renderingLeftMs: runRenderTimeMs, memoryLeft: runRenderMemory, sinceYieldMs: 0 };
}

/** Rendering time after which the next template first lets other requests have their turn. */
const renderingBetweenYieldsMs = 10;

/**
 * Resolves on the event loop's next turn, after the I/O waiting now (a resolved promise would
 * continue before any I/O). Browsers have no setImmediate; a zero timeout is their next turn.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}

/** The run's templates spent their budget; the run fails with a clear message. */
export class RenderBudgetError extends Error {
  constructor(resource: 'time' | 'memory') {
    super(
      resource === 'time'
        ? `the templates of one run may render for ${runRenderTimeMs} ms in all`
        : `the templates of one run may produce ${runRenderMemory} characters in all`,
    );
  }
}

/** The parse error of a template, or undefined when it parses. */
export function templateParseError(source: string): string | undefined {
  try {
    templateEngine.parse(source);
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

/** A template parsed once, and the variables it reads once asked (walking its tree costs more than rendering it). */
type ParsedTemplate = { templates: Template[]; variables?: string[] };

const parsedTemplates = new Map<string, ParsedTemplate>();
const parsedTemplateLimit = 2_000;

/** Parsed once per distinct source: every run of an Action renders the same few templates. */
function parsedEntry(source: string): ParsedTemplate {
  let entry = parsedTemplates.get(source);
  if (!entry) {
    entry = { templates: templateEngine.parse(source) };
    if (parsedTemplates.size >= parsedTemplateLimit) {
      parsedTemplates.delete(parsedTemplates.keys().next().value!);
    }
    parsedTemplates.set(source, entry);
  }
  return entry;
}

function parsed(source: string): Template[] {
  return parsedEntry(source).templates;
}

/** The top-level variable names a template reads (`{{ user.name }}` → `user`). */
export function templateVariables(source: string): string[] {
  const entry = parsedEntry(source);
  entry.variables ??= templateEngine.globalVariablesSync(entry.templates);
  return entry.variables;
}

/** Thrown for a variable the template needs and the input does not give. */
export class MissingVariableError extends Error {
  constructor(readonly variable: string) {
    super(`missing template variable "${variable}"`);
  }
}

export async function renderTemplate(
  source: string,
  variables: Record<string, unknown>,
  budget: RenderBudget = createRenderBudget(),
): Promise<string> {
  // Between two templates other requests get their turn: a run of many templates never holds the thread.
  if (budget.sinceYieldMs >= renderingBetweenYieldsMs) {
    budget.sinceYieldMs = 0;
    await nextTurn();
  }
  if (budget.renderingLeftMs <= 0) throw new RenderBudgetError('time');
  if (budget.memoryLeft <= 0) throw new RenderBudgetError('memory');
  // Only time spent rendering counts, not time other requests took in between.
  const started = performance.now();
  try {
    const rendered: string = await templateEngine.render(parsed(source), variables, {
      renderLimit: budget.renderingLeftMs,
      memoryLimit: budget.memoryLeft,
    });
    // LiquidJS counts what some tags allocate, not what `{% capture %}` builds: a capture doubled in
    // a loop makes megabytes in microseconds. What a render produced is what the budget bounds.
    if (rendered.length > budget.memoryLeft) throw new RenderBudgetError('memory');
    budget.memoryLeft -= rendered.length;
    return rendered;
  } catch (error) {
    if (error instanceof RenderBudgetError) throw error;
    if (/template render limit exceeded/.test((error as Error).message)) throw new RenderBudgetError('time');
    if (/memory alloc limit exceeded/.test((error as Error).message)) throw new RenderBudgetError('memory');
    // A capture doubled past what a string can hold.
    if (/Invalid string length/.test((error as Error).message)) throw new RenderBudgetError('memory');
    const undefinedVariable = /undefined variable: ([^,]+)/.exec((error as Error).message);
    if (undefinedVariable) throw new MissingVariableError(undefinedVariable[1]!);
    throw error;
  } finally {
    const spent = performance.now() - started;
    budget.renderingLeftMs -= spent;
    budget.sinceYieldMs += spent;
  }
}
