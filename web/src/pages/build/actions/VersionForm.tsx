import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import type { Context, ListEnvelope, Skill, TemplateMessage } from '../../../api';
import { Field, fieldError } from '../../../components/Field';
import { TemplateEditor, TemplateField } from '../../../components/TemplateEditor';
import { useAllContexts, useAllSkills, useAllSnippets, useModels } from '../../../queries/lists';
import { useProviderKinds } from '../../../queries/providers';
import { templateVariables } from '../../../template-variables';
import { contextVariable, type Draft } from './draft';

/** Models every provider kind offers (the mock's, as the service lists them), then the workspace's own records. */
function useModelSuggestions() {
  const kinds = useProviderKinds();
  const models = useModels();
  const offered = (kinds.data?.data ?? []).flatMap((kind) =>
    kind.suggested_models.map((model) => `${kind.name}/${model}`),
  );
  return [...offered, ...(models.data ?? []).map((model) => model.reference)];
}

/** A set of GUIDs chosen from a workspace list (its Contexts or Skills), as labelled checkboxes. */
function Attachments({
  legend,
  list,
  selected,
  onChange,
}: {
  legend: string;
  /** The workspace's Contexts or Skills (queries/lists.ts). */
  list: UseQueryResult<ListEnvelope<Pick<Context | Skill, 'guid' | 'name'>>>;
  selected: string[];
  onChange: (selected: string[]) => void;
}) {
  return (
    <fieldset className="attachments">
      <legend>{legend}</legend>
      {list.isPending && <span className="muted">Loading…</span>}
      {list.isError && <span className="field-error">{list.error.message}</span>}
      {list.data?.data.length === 0 && <span className="muted">None in this workspace</span>}
      {list.data?.data.map((item) => (
        <label key={item.guid} className="check">
          <input
            type="checkbox"
            checked={selected.includes(item.guid)}
            onChange={(event) =>
              onChange(
                event.target.checked
                  ? [...selected, item.guid]
                  : selected.filter((guid) => guid !== item.guid),
              )
            }
          />
          {item.name}
        </label>
      ))}
    </fieldset>
  );
}

function MessagesEditor({
  messages,
  onChange,
  error,
}: {
  messages: TemplateMessage[];
  onChange: (messages: TemplateMessage[]) => void;
  error?: Error | null;
}) {
  const replace = (index: number, message: TemplateMessage) =>
    onChange(messages.map((each, at) => (at === index ? message : each)));
  return (
    <fieldset className="messages">
      <legend>Messages</legend>
      {messages.map((message, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages have no identity but their place
        <div className="message" key={index}>
          <select
            aria-label={`Role of message ${index + 1}`}
            value={message.role}
            onChange={(event) =>
              replace(index, { ...message, role: event.target.value as TemplateMessage['role'] })
            }
          >
            <option value="user">user</option>
            <option value="assistant">assistant</option>
            <option value="system">system</option>
          </select>
          <TemplateEditor
            label={`Message ${index + 1}`}
            value={message.content}
            onChange={(content) => replace(index, { ...message, content })}
          />
          <button
            type="button"
            className="secondary"
            aria-label={`Remove message ${index + 1}`}
            disabled={messages.length === 1}
            onClick={() => onChange(messages.filter((_, at) => at !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary"
        onClick={() =>
          onChange([
            ...messages,
            { role: messages.at(-1)?.role === 'user' ? 'assistant' : 'user', content: '' },
          ])
        }
      >
        Add message
      </button>
      {fieldError(error, 'messages') && (
        <p className="field-error" role="alert">
          {fieldError(error, 'messages')}
        </p>
      )}
    </fieldset>
  );
}

/** The variables the templates read, found as the person types, and a parse error if there is one. */
export function useDraftVariables(draft: Draft) {
  const snippets = useAllSnippets().data?.data;
  return useMemo(
    () =>
      templateVariables(
        [
          draft.systemMessage,
          ...(draft.mode === 'prompt' ? [draft.prompt] : draft.messages.map((message) => message.content)),
        ],
        snippets,
      ),
    [draft.systemMessage, draft.mode, draft.prompt, draft.messages, snippets],
  );
}

/** Everything a version holds: model, templates, model settings, attachments and tools. */
export function VersionForm({
  draft,
  onChange,
  error,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  error?: Error | null;
}) {
  const set = <Key extends keyof Draft>(key: Key, value: Draft[Key]) => onChange({ ...draft, [key]: value });
  const suggestions = useModelSuggestions();
  const contexts = useAllContexts();
  const skills = useAllSkills();
  const modelList = useId();
  const found = useDraftVariables(draft);
  const promptError = fieldError(error, 'prompt') ?? found.error;
  const systemError = fieldError(error, 'system_message');

  return (
    <div className="version-form">
      <div className="editor-main">
        <Field
          label="Model"
          name="model"
          error={error}
          hint="provider/model, a provider nickname, or a model record"
        >
          <input
            list={modelList}
            value={draft.model}
            required
            onChange={(event) => set('model', event.target.value)}
          />
        </Field>
        <datalist id={modelList}>
          {suggestions.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
        <TemplateField
          label="System message"
          value={draft.systemMessage}
          placeholder="You are a helpful assistant."
          error={systemError}
          onChange={(value) => set('systemMessage', value)}
        />
        <fieldset className="segmented">
          <legend>Template</legend>
          <label>
            <input type="radio" checked={draft.mode === 'prompt'} onChange={() => set('mode', 'prompt')} />{' '}
            One prompt
          </label>
          <label>
            <input
              type="radio"
              checked={draft.mode === 'messages'}
              onChange={() => set('mode', 'messages')}
            />{' '}
            Messages
          </label>
        </fieldset>
        {draft.mode === 'prompt' ? (
          <TemplateField
            label="Prompt"
            value={draft.prompt}
            placeholder="Write a haiku about {{topic}}"
            error={promptError}
            onChange={(value) => set('prompt', value)}
          />
        ) : (
          <MessagesEditor
            messages={draft.messages}
            onChange={(messages) => set('messages', messages)}
            error={error}
          />
        )}
      </div>
      <aside className="editor-side" aria-label="Variables and settings">
        <section aria-labelledby="variables-title">
          <h3 id="variables-title">Variables</h3>
          {found.variables.length === 0 ? (
            <p className="muted">None: a run's text input is sent as the user message.</p>
          ) : (
            <ul className="chips" aria-label="Template variables">
              {found.variables.map((name) => (
                <li key={name}>
                  {name}
                  {name === contextVariable && <span className="muted"> (from Contexts)</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
        <Field label="Temperature" name="model_config.temperature" error={error}>
          <input
            inputMode="decimal"
            value={draft.temperature}
            onChange={(event) => set('temperature', event.target.value)}
          />
        </Field>
        <Field label="Max output tokens" name="model_config.max_response_length" error={error}>
          <input
            inputMode="numeric"
            value={draft.maxResponseLength}
            onChange={(event) => set('maxResponseLength', event.target.value)}
          />
        </Field>
        <Field label="Output format" name="model_config.response_format" error={error}>
          <select
            value={draft.responseFormat}
            onChange={(event) => set('responseFormat', event.target.value as Draft['responseFormat'])}
          >
            <option value="">Model default</option>
            <option value="text">Text</option>
            <option value="json_object">JSON object</option>
            <option value="json_schema">JSON schema (structured output)</option>
          </select>
        </Field>
        {draft.responseFormat === 'json_schema' && (
          <Field label="JSON schema" name="model_config.json_schema" error={error}>
            <textarea
              rows={6}
              className="code"
              value={draft.jsonSchema}
              onChange={(event) => set('jsonSchema', event.target.value)}
            />
          </Field>
        )}
        <Attachments
          legend="Contexts"
          list={contexts}
          selected={draft.contexts}
          onChange={(value) => set('contexts', value)}
        />
        <Attachments
          legend="Skills"
          list={skills}
          selected={draft.skills}
          onChange={(value) => set('skills', value)}
        />
        <Field label="Tools (JSON)" name="tools" error={error} hint='[{"name": "lookup", "parameters": {…}}]'>
          <textarea
            rows={4}
            className="code"
            value={draft.tools}
            onChange={(event) => set('tools', event.target.value)}
          />
        </Field>
      </aside>
    </div>
  );
}
