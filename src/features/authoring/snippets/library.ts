import {
  IncludeError,
  type IncludeReference,
  resolveIncludes,
  templateIncludes,
  templateParseError,
} from '@lectern/prompt-templates';
import type { ResolvedTemplates, SnippetPins, TemplateMessage } from '../../../core/json-columns.js';
import { ValidationError } from '../../../errors.js';
import type { SnippetRepository } from './repository.js';

/** The templates of an Action version, as the version stores them (includes unresolved). */
export type TemplateFields = {
  prompt: string | null;
  messages: TemplateMessage[] | null;
  systemMessage: string | null;
};

/** What saving a version pins: the snippet versions it includes, and its templates with them included. */
export type SnippetResolution = { snippets: SnippetPins; resolved: ResolvedTemplates | null };

/** A template's longest text once its snippets are included (as long as one template may be). */
export const longestResolvedTemplate = 200_000;

type Chosen = { guid: string; version: number; content: string; includes: IncludeReference[] };

function includesOf(field: string, source: string): IncludeReference[] {
  try {
    return templateIncludes(source);
  } catch (error) {
    if (error instanceof IncludeError) throw new ValidationError(field, error.message);
    throw error;
  }
}

/**
 * Finds every snippet the templates include, their own includes too, and refuses (400, naming the
 * field) a snippet that does not exist, one included at two versions, and an include cycle.
 * `own` is a snippet being saved: its new content stands for its name, and reaching it again is a cycle.
 */
export function createSnippetLibrary(dependencies: { repository: SnippetRepository }) {
  const { repository } = dependencies;
  async function choose(
    workspaceId: string,
    sources: [field: string, source: string][],
    own?: { name: string; field: string },
  ): Promise<Map<string, Chosen>> {
    const chosen = new Map<string, Chosen>();
    // Breadth first, one statement per level for the latest versions, so a deep tree costs a few reads.
    let level = sources.flatMap(([field, source]) =>
      includesOf(field, source).map((reference) => ({ field, reference })),
    );
    while (level.length > 0) {
      const next: typeof level = [];
      const wanted = level.filter(({ reference }) => !chosen.has(reference.name));
      const latest = await repository.findByNames(workspaceId, [
        ...new Set(
          wanted
            .filter(({ reference }) => reference.version === undefined)
            .map(({ reference }) => reference.name),
        ),
      ]);
      const latestByName = new Map(latest.map((row) => [row.snippet.name, row]));
      for (const { field, reference } of level) {
        if (own && reference.name === own.name)
          throw new ValidationError(own.field, `snippet "${own.name}" would include itself`);
        const known = chosen.get(reference.name);
        if (known) {
          if (reference.version !== undefined && reference.version !== known.version)
            throw new ValidationError(
              field,
              `snippet "${reference.name}" is included at versions ${known.version} and ${reference.version}: include one version`,
            );
          continue;
        }
        const row =
          reference.version === undefined
            ? latestByName.get(reference.name)
            : await repository.findVersionByName(workspaceId, reference.name, reference.version);
        if (!row)
          throw new ValidationError(
            field,
            reference.version === undefined
              ? `snippet "${reference.name}" not found`
              : `snippet "${reference.name}" has no version ${reference.version}`,
          );
        const version = reference.version ?? row.snippet.latestVersion;
        const includes = includesOf(field, row.content);
        chosen.set(reference.name, { guid: row.snippet.id, version, content: row.content, includes });
        next.push(...includes.map((included) => ({ field, reference: included })));
      }
      level = next;
    }
    assertNoCycle(chosen, sources);
    return chosen;
  }

  /** A cycle among the chosen snippets: a → b → a would include forever. */
  function assertNoCycle(chosen: Map<string, Chosen>, sources: [string, string][]) {
    const done = new Set<string>();
    const visit = (name: string, path: string[], field: string) => {
      if (path.includes(name))
        throw new ValidationError(field, `snippet "${name}" includes itself: ${[...path, name].join(' → ')}`);
      if (done.has(name)) return;
      for (const included of chosen.get(name)?.includes ?? []) visit(included.name, [...path, name], field);
      done.add(name);
    };
    for (const [field, source] of sources)
      for (const reference of includesOf(field, source)) visit(reference.name, [], field);
  }

  function resolveSource(field: string, source: string, chosen: Map<string, Chosen>): string {
    try {
      return resolveIncludes(source, (reference) => chosen.get(reference.name)!.content, {
        longest: longestResolvedTemplate,
      });
    } catch (error) {
      if (error instanceof IncludeError) throw new ValidationError(field, error.message);
      throw error;
    }
  }

  return {
    /** The pins and resolved templates of an Action version about to be saved. */
    async resolve(workspaceId: string, templates: TemplateFields): Promise<SnippetResolution> {
      const sources: [string, string][] = [
        ...(templates.prompt === null ? [] : [['prompt', templates.prompt] as [string, string]]),
        ...(templates.systemMessage === null
          ? []
          : [['system_message', templates.systemMessage] as [string, string]]),
        ...(templates.messages ?? []).map((message, index): [string, string] => [
          `messages.${index}.content`,
          message.content,
        ]),
      ];
      const chosen = await choose(workspaceId, sources);
      if (chosen.size === 0) return { snippets: {}, resolved: null };
      const resolve = (field: string, source: string | null) =>
        source === null ? null : resolveSource(field, source, chosen);
      return {
        snippets: Object.fromEntries(
          [...chosen].map(([name, { guid, version }]) => [name, { guid, version }]),
        ),
        resolved: {
          prompt: resolve('prompt', templates.prompt),
          systemMessage: resolve('system_message', templates.systemMessage),
          messages:
            templates.messages?.map((message, index) => ({
              role: message.role,
              content: resolve(`messages.${index}.content`, message.content)!,
            })) ?? null,
        },
      };
    },

    /**
     * Checks a snippet's new content: what it includes exists, it never includes itself, and with
     * its includes resolved it parses. The error names `content`.
     */
    async check(workspaceId: string, name: string, content: string): Promise<void> {
      const chosen = await choose(workspaceId, [['content', content]], { name, field: 'content' });
      const error = templateParseError(resolveSource('content', content, chosen));
      if (error) throw new ValidationError('content', `template does not parse: ${error}`);
    },
  };
}

export type SnippetLibrary = ReturnType<typeof createSnippetLibrary>;
