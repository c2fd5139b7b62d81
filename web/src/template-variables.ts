import { Liquid } from 'liquidjs';

// The same Liquid dialect the service renders with, without files: a template's variables and its
// parse error are found here exactly as the service will find them when the version is saved.
const engine = new Liquid({ templates: {}, strictFilters: true, lenientIf: true });

/** The variables of a set of templates, in order of first use, or the first template that does not parse. */
export function templateVariables(templates: string[]): { variables: string[]; error?: string } {
  const variables = new Set<string>();
  for (const template of templates) {
    if (!template) continue;
    try {
      for (const name of engine.globalVariablesSync(engine.parse(template))) variables.add(name);
    } catch (error) {
      return { variables: [...variables], error: (error as Error).message.split('\n')[0] };
    }
  }
  return { variables: [...variables] };
}
