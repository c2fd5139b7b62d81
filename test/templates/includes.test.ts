import { renderTemplate, resolveIncludes, templateIncludes } from '@lectern/prompt-templates';
import fc from 'fast-check';
import { Liquid } from 'liquidjs';
import { describe, expect, it } from 'vitest';

// A resolved include is the snippet's text put where the tag was. This holds it to LiquidJS's own
// `include` (a Liquid whose in-memory templates are the snippets): for any template and snippets,
// with or without whitespace control on the tag, both render the same text.
const liquidOwnInclude = (snippets: Record<string, string>) =>
  new Liquid({ templates: snippets, strictVariables: true, lenientIf: true, ownPropertyOnly: true });

const text = fc
  .string({ unit: fc.constantFrom('a', ' ', '\n', '\t', 'é', '-', '"', "'") })
  .filter((value) => !/[{}%]/.test(value));
const variable = fc.constantFrom(
  '{{ v0 }}',
  '{{ v1 | upcase }}',
  '{{- v0 -}}',
  '{% if v0 %}yes{% else %}no{% endif %}',
  '{%- if v1 -%} y {%- endif -%}',
);
const body = fc.array(fc.oneof(text, variable), { maxLength: 4 }).map((parts) => parts.join(''));
const tag = fc
  .tuple(fc.constantFrom('s0', 's1'), fc.boolean(), fc.boolean())
  .map(([name, left, right]) => `{%${left ? '-' : ''} include '${name}' ${right ? '-' : ''}%}`);
const template = fc.array(fc.oneof(text, variable, tag), { maxLength: 6 }).map((parts) => parts.join(''));
// The first snippet may include the second: a snippet's includes are put in the same way.
const outerBody = fc
  .array(
    fc.oneof(
      text,
      variable,
      tag.filter((included) => included.includes("'s1'")),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));

describe('snippet includes', () => {
  it('render what LiquidJS’s own include renders, whitespace control included', async () => {
    await fc.assert(
      fc.asyncProperty(
        template,
        outerBody,
        body,
        fc.string(),
        fc.string(),
        async (source, s0, s1, v0, v1) => {
          const snippets = { s0, s1 };
          const variables = { v0, v1 };
          const resolved = resolveIncludes(source, (reference) => snippets[reference.name as 's0' | 's1']);
          expect(resolved).not.toContain('include');
          expect(await renderTemplate(resolved, variables)).toBe(
            await liquidOwnInclude(snippets).parseAndRender(source, variables),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finds the includes of a template, pinned or not, but not in comments or raw blocks', () => {
    expect(
      templateIncludes(
        "{% include 'a' %}{%- include \"b@3\" -%}{% comment %}{% include 'c' %}{% endcomment %}{% raw %}{% include 'd' %}{% endraw %}",
      ),
    ).toEqual([{ name: 'a' }, { name: 'b', version: 3 }]);
    expect(() => templateIncludes('{% include snippet_name %}')).toThrow(/names one snippet in quotes/);
    expect(() => templateIncludes("{% include 'a', x: 1 %}")).toThrow(/names one snippet in quotes/);
    expect(() => templateIncludes("{% include 'a@0' %}")).toThrow(/not a version number/);
  });

  it('refuses, while it builds, a text that snippets including each other twice over would make huge', () => {
    // Fifteen levels of "include the next one twice" would be 2^15 copies of the last text.
    const contentOf = ({ name }: { name: string }) => {
      const level = Number(name.slice(1));
      return level === 15 ? 'x'.repeat(1_000) : `{% include 's${level + 1}' %}{% include 's${level + 1}' %}`;
    };
    expect(() => resolveIncludes("{% include 's0' %}", contentOf, { longest: 200_000 })).toThrow(
      /over 200000 characters/,
    );
  });

  it('refuses snippets nested deeper than 16', () => {
    expect(() => resolveIncludes("{% include 'loop' %}", () => "{% include 'loop' %}")).toThrow(/16 deep/);
  });
});
