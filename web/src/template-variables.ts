import { Liquid } from 'liquidjs';
import type { SnippetSummary } from './components/snippet-assist';

// The same Liquid dialect the service renders with, without files: a template's variables and its
// parse error are found here exactly as the service will find them when the version is saved. An
// include reads the workspace's snippets, whose variables count as the template's.

const engines = new WeakMap<readonly SnippetSummary[], Liquid>();
const noSnippets: readonly SnippetSummary[] = [];

function engineFor(snippets: readonly SnippetSummary[]): Liquid {
  let engine = engines.get(snippets);
  if (!engine) {
    // A pinned include (`name@3`) is read with the latest text: close enough to list variables.
    const templates = Object.fromEntries(
      snippets.flatMap((snippet) => [
        [snippet.name, snippet.content],
        ...Array.from({ length: snippet.version }, (_, index) => [
          `${snippet.name}@${index + 1}`,
          snippet.content,
        ]),
      ]),
    );
    engine = new Liquid({ templates, strictFilters: true, lenientIf: true });
    engines.set(snippets, engine);
  }
  return engine;
}

/** The message of a template that does not parse, as the service would say it. */
function reasonOf(error: unknown): string {
  const message = (error as Error).message.split('\n')[0]!;
  const missing = /Failed to lookup "([^"]+)"/.exec(message);
  return missing ? `no snippet named "${missing[1]}" in this workspace` : message;
}

/** The variables of a set of templates, in order of first use, or the first template that does not parse. */
export function templateVariables(
  templates: string[],
  snippets: readonly SnippetSummary[] = noSnippets,
): { variables: string[]; error?: string } {
  const engine = engineFor(snippets);
  const variables = new Set<string>();
  for (const template of templates) {
    if (!template) continue;
    try {
      for (const name of engine.globalVariablesSync(engine.parse(template))) variables.add(name);
    } catch (error) {
      return { variables: [...variables], error: reasonOf(error) };
    }
  }
  return { variables: [...variables] };
}
