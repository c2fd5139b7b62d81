import { Liquid } from 'liquidjs';

/**
 * Prompt templates are LiquidJS with the dangerous parts off: no file system (`templates: {}` makes
 * every include/render/layout miss), own properties only (no `constructor` walks), strict variables,
 * and limits on parse size, render time and memory so a template cannot stall the server.
 */
export const templateEngine = new Liquid({
  templates: {},
  strictVariables: true,
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
