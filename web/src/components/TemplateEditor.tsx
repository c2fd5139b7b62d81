import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { liquid } from '@codemirror/lang-liquid';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { useAllSnippets } from '../queries/lists';
import { type SnippetSummary, snippetAssist } from './snippet-assist';

/** Marks a change of the text made from outside the editor (not typed). */
const fromOutside = Annotation.define<boolean>();

/**
 * The nonce the server named for this page (its `csp-nonce` meta tag): the editor writes its styles
 * into a <style> element, which the page's Content-Security-Policy admits only with it.
 */
const styleNonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

/**
 * A Liquid template in CodeMirror 6. Tab leaves the editor (no indent-with-tab), so the page stays
 * keyboard-navigable; the editable area carries the label for screen readers. After
 * `{% include '` it completes the workspace's snippet names, and hovering an include shows its text.
 */
export function TemplateEditor({
  value,
  onChange,
  label,
  placeholder,
  invalid,
  describedBy,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;
  const attributesSlot = useRef(new Compartment());
  const snippetList = useAllSnippets();
  const snippets = useRef<SnippetSummary[]>([]);
  snippets.current = snippetList.data?.data ?? [];
  const attributes: Record<string, string> = { 'aria-label': label, 'aria-multiline': 'true' };
  if (invalid) attributes['aria-invalid'] = 'true';
  if (describedBy) attributes['aria-describedby'] = describedBy;
  const attributesKey = JSON.stringify(attributes);

  // The editor is made once: remaking it would drop the focus and the typing in progress (a
  // template becomes invalid while "{{" is half typed). Text and attributes are updated in place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: value and attributes are applied below
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
          liquid(),
          autocompletion(),
          snippetAssist(() => snippets.current),
          syntaxHighlighting(defaultHighlightStyle),
          EditorView.lineWrapping,
          EditorView.cspNonce.of(styleNonce),
          attributesSlot.current.of(EditorView.contentAttributes.of(attributes)),
          ...(placeholder ? [placeholderText(placeholder)] : []),
          EditorView.updateListener.of((update) => {
            const typed = update.transactions.some((transaction) => !transaction.annotation(fromOutside));
            if (update.docChanged && typed) latestOnChange.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, [placeholder]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attributesKey stands for the attributes
  useEffect(() => {
    view.current?.dispatch({
      effects: attributesSlot.current.reconfigure(EditorView.contentAttributes.of(attributes)),
    });
  }, [attributesKey]);

  // A value set from outside (a version loaded, a form reset) replaces the text without reporting
  // it back as typing: a discarded draft must not come back as a new edit of the text it showed.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({
        changes: { from: 0, to: editor.state.doc.length, insert: value },
        annotations: fromOutside.of(true),
      });
    }
  }, [value]);

  return <div className="template-editor" ref={host} />;
}

/** A labelled template editor with the service's error for its field (or the browser's own) below it. */
export function TemplateField({
  label,
  value,
  onChange,
  error,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
}) {
  return (
    <div className="field">
      <span className="label">{label}</span>
      <TemplateEditor
        label={label}
        value={value}
        placeholder={placeholder}
        invalid={Boolean(error)}
        onChange={onChange}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
