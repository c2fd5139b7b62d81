import { TagToken, Tokenizer, TokenKind } from 'liquidjs';

/**
 * Snippets: a template includes one with LiquidJS's `{% include 'name' %}`, or a version of it with
 * `{% include 'name@3' %}`. Includes are resolved before a template is parsed, by putting the
 * snippet's text where the tag was, so a resolved template is plain LiquidJS: the server and the
 * client render the same text, and a client that knows nothing of snippets renders it too. The
 * snippet sees the template's variables, as LiquidJS's own `include` shows them to it.
 */

/** The names a snippet may have: also what an include may name, so a name is never a path. */
export const snippetNamePattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** One include of a template: the snippet's name and, when pinned in the tag, its version. */
export type IncludeReference = { name: string; version?: number };

/** An include the template cannot have; `snippet` names the snippet when the tag names one. */
export class IncludeError extends Error {
  constructor(
    message: string,
    readonly snippet?: string,
  ) {
    super(message);
  }
}

/**
 * An include tag where it stands in its template, and the whitespace control around it. LiquidJS
 * trims only the token next to a `{%-` or `-%}`, and only text: what trims toward the tag, or toward
 * the template from the snippet's edges, trims nothing when the snippet is a template of its own.
 */
type IncludeTag = IncludeReference & {
  begin: number;
  end: number;
  /** The tag's `{%-` trims the text before it; its `-%}` the text after it. */
  trimsBefore: boolean;
  trimsAfter: boolean;
  /**
   * A `-%}` (or `-}}`) before the tag that would trim the snippet's first text once inlined: right
   * before it, or before whitespace alone, which the inlined text would join.
   */
  trimmedFromBefore: boolean;
  trimmedFromAfter: boolean;
  hasBefore: boolean;
  hasAfter: boolean;
};

const quotedReference = /^\s*(['"])([^'"]*)\1\s*$/;

function referenceOf(args: string): IncludeReference {
  const quoted = quotedReference.exec(args)?.[2];
  if (quoted === undefined)
    throw new IncludeError(
      `{% include ${args.trim()} %}: an include names one snippet in quotes, as 'name' or 'name@3'`,
    );
  const [name, version, ...rest] = quoted.split('@');
  if (!snippetNamePattern.test(name!) || rest.length > 0)
    throw new IncludeError(`{% include '${quoted}' %}: "${name}" is not a snippet name`, name);
  if (version === undefined) return { name: name! };
  if (!/^[1-9][0-9]{0,8}$/.test(version))
    throw new IncludeError(`{% include '${quoted}' %}: "${version}" is not a version number`, name);
  return { name: name!, version: Number(version) };
}

type EdgeToken = { kind: number; begin: number; end: number; trimLeft?: boolean; trimRight?: boolean };

/**
 * Whether whitespace control reaches the edge next to `index`, coming from the `step` side: the
 * token at `index` trims toward it, or it is whitespace alone and the token past it does.
 */
function reachesEdge(tokens: readonly unknown[], source: string, index: number, step: -1 | 1): boolean {
  const side = step === -1 ? 'trimRight' : 'trimLeft';
  const trimsToward = (at: number) => {
    const token = tokens[at] as EdgeToken | undefined;
    return token !== undefined && token.kind !== TokenKind.HTML && token[side] === true;
  };
  const token = tokens[index] as EdgeToken | undefined;
  if (token === undefined) return false;
  if (token.kind !== TokenKind.HTML) return trimsToward(index);
  return source.slice(token.begin, token.end).trim() === '' && trimsToward(index + step);
}

/** The include tags of a template, outside `{% comment %}` and `{% raw %}` blocks, in order. */
function includeTags(source: string): IncludeTag[] {
  if (!source.includes('include')) return [];
  const tags: IncludeTag[] = [];
  const tokens = new Tokenizer(source).readTopLevelTokens();
  const isText = (index: number) => tokens[index]?.kind === TokenKind.HTML;
  let inComment = 0;
  tokens.forEach((token, index) => {
    if (!(token instanceof TagToken)) return;
    if (token.name === 'comment') inComment += 1;
    else if (token.name === 'endcomment') inComment = Math.max(0, inComment - 1);
    else if (token.name === 'include' && inComment === 0) {
      tags.push({
        ...referenceOf(token.args),
        begin: token.begin,
        end: token.end,
        trimsBefore: token.trimLeft && isText(index - 1),
        trimsAfter: token.trimRight && isText(index + 1),
        trimmedFromBefore: reachesEdge(tokens, source, index - 1, -1),
        trimmedFromAfter: reachesEdge(tokens, source, index + 1, 1),
        hasBefore: index > 0,
        hasAfter: index < tokens.length - 1,
      });
    }
  });
  return tags;
}

/** The snippets a template includes directly (a tokenizing error is the parser's to report). */
export function templateIncludes(source: string): IncludeReference[] {
  try {
    return includeTags(source).map(({ name, version }) =>
      version === undefined ? { name } : { name, version },
    );
  } catch (error) {
    if (error instanceof IncludeError) throw error;
    return [];
  }
}

/** How deep snippets may include snippets: deeper is almost surely a mistake. */
export const maximumIncludeDepth = 16;

// Where whitespace control would reach across the snippet's edge once it is inlined, an empty
// comment stands there to stop it (as in LiquidJS, where a snippet is a template of its own); the
// include's own `{%-` and `-%}` are carried over to the text beside the tag the same way. Elsewhere
// the snippet's text is put in as it is, so a resolved template reads like the text it renders.
const edge = '{% comment %}{% endcomment %}';
const trimBefore = '{%- comment %}{% endcomment %}';
const trimAfter = '{% comment %}{% endcomment -%}';

/** Whether whitespace control in a snippet reaches past its first text, and past its last. */
function trimmingEnds(content: string): { first: boolean; last: boolean } {
  if (!/[{%]-|-[}%]/.test(content)) return { first: false, last: false };
  try {
    const tokens = new Tokenizer(content).readTopLevelTokens();
    return {
      first: reachesEdge(tokens, content, 0, 1),
      last: reachesEdge(tokens, content, tokens.length - 1, -1),
    };
  } catch {
    // A snippet that does not tokenize was refused when it was saved; keep its edges guarded.
    return { first: true, last: true };
  }
}

/**
 * The template with every include replaced by its snippet's text, included snippets' own includes
 * too. `contentOf` answers a snippet's (already chosen) text for a reference. The text may grow to
 * `longest` characters: it is checked as it grows, so snippets that include each other many times
 * over are refused before they are built, not after.
 */
export function resolveIncludes(
  source: string,
  contentOf: (reference: IncludeReference) => string,
  { longest = Number.POSITIVE_INFINITY }: { longest?: number } = {},
): string {
  const resolve = (text: string, depth: number): string => {
    const tags = includeTags(text);
    if (tags.length === 0) return text;
    if (depth >= maximumIncludeDepth)
      throw new IncludeError(`snippets may include snippets ${maximumIncludeDepth} deep at most`);
    let resolved = '';
    const append = (part: string) => {
      resolved += part;
      if (resolved.length > longest)
        throw new IncludeError(`with its snippets included the template is over ${longest} characters`);
    };
    let at = 0;
    for (const tag of tags) {
      append(text.slice(at, tag.begin));
      const content = resolve(contentOf(tag), depth + 1);
      const ends = trimmingEnds(content);
      if (tag.trimsBefore) append(trimBefore);
      else if (tag.trimmedFromBefore || (tag.hasBefore && ends.first)) append(edge);
      append(content);
      if (tag.trimsAfter) append(trimAfter);
      else if (tag.trimmedFromAfter || (tag.hasAfter && ends.last)) append(edge);
      at = tag.end;
    }
    append(text.slice(at));
    return resolved;
  };
  return resolve(source, 0);
}
