import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { EditorState, type Extension } from '@codemirror/state';
import { hoverTooltip } from '@codemirror/view';

/** What the editor knows of a snippet: enough to offer its name and show its text. */
export type SnippetSummary = { name: string; version: number; content: string };

/** `{% include 'na` as it is typed: the name so far follows the quote. */
const includeBeingTyped = /\{%-?\s*include\s+['"][a-z0-9_-]*/;

/** A whole include, pinned or not: `{% include 'tone' %}`, `{%- include "tone@3" -%}`. */
const wholeInclude = /\{%-?\s*include\s+(['"])([a-z0-9_-]+)(?:@(\d+))?\1/g;

function completions(snippets: () => SnippetSummary[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const typed = context.matchBefore(includeBeingTyped);
    if (!typed) return null;
    const quote = Math.max(typed.text.lastIndexOf("'"), typed.text.lastIndexOf('"'));
    return {
      from: typed.from + quote + 1,
      options: snippets().map((snippet) => ({
        label: snippet.name,
        type: 'text',
        detail: `v${snippet.version}`,
        info: snippet.content,
      })),
      validFor: /^[a-z0-9_-]*$/,
    };
  };
}

function tooltipOf(
  snippet: SnippetSummary | undefined,
  name: string,
  pinned: string | undefined,
): HTMLElement {
  const box = document.createElement('div');
  box.className = 'snippet-tooltip';
  const title = document.createElement('p');
  title.className = 'snippet-tooltip-title';
  if (!snippet) {
    title.textContent = `No snippet named "${name}" in this workspace`;
    box.append(title);
    return box;
  }
  title.textContent = pinned
    ? `${name}: pinned to v${pinned} (the latest, v${snippet.version}, is shown)`
    : `${name} v${snippet.version}: a save of this template pins it`;
  const text = document.createElement('pre');
  text.textContent = snippet.content || '(empty)';
  box.append(title, text);
  return box;
}

/**
 * Snippet help in the template editor: after `{% include '` it offers the workspace's snippet
 * names (with each one's text beside the list), and hovering an include shows the snippet's text.
 * `snippets` is read each time, so the editor, made once, sees the list as it loads.
 */
export function snippetAssist(snippets: () => SnippetSummary[]): Extension {
  // One source for the editor's life: the completion state knows a source by its identity.
  const completeSnippetNames = completions(snippets);
  return [
    EditorState.languageData.of(() => [{ autocomplete: completeSnippetNames }]),
    hoverTooltip((view, position) => {
      const line = view.state.doc.lineAt(position);
      for (const match of line.text.matchAll(wholeInclude)) {
        const from = line.from + match.index;
        const to = from + match[0].length;
        if (position < from || position > to) continue;
        const [, , name, pinned] = match;
        const snippet = snippets().find((each) => each.name === name);
        return {
          pos: from,
          end: to,
          above: true,
          create: () => ({ dom: tooltipOf(snippet, name!, pinned) }),
        };
      }
      return null;
    }),
  ];
}
