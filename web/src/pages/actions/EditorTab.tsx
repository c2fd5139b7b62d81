import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { type Action, api } from '../../api';
import { FormError } from '../../components/Field';
import { useGate } from '../../components/gate';
import { keys } from '../../queries/keys';
import { type Draft, draftOf, versionBody } from './draft';
import { VersionForm } from './VersionForm';

/**
 * Edits the latest version; saving makes a new version and deploys nothing. The draft is held by the
 * Action's page, so the playground can run it before it is saved.
 */
export function EditorTab({
  action,
  draft,
  setDraft,
}: {
  action: Action;
  draft: Draft;
  setDraft: (draft: Draft | null) => void;
}) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const pristine = JSON.stringify(draft) === JSON.stringify(draftOf(action));

  const save = useMutation({
    mutationFn: () =>
      api('PUT /v1/actions/{guid}', { path: { guid: action.guid }, body: versionBody(draft) }),
    onSuccess: (updated) => {
      queries.setQueryData(keys.actions.one(action.guid), updated);
      void queries.invalidateQueries({ queryKey: keys.actions.versions(action.guid) });
      void queries.invalidateQueries({ queryKey: keys.actions.all });
      setDraft(null);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form onSubmit={submit} aria-label="Edit the template" className="page-form">
      <div className="toolbar">
        <span className="muted" aria-live="polite">
          {save.isSuccess && pristine
            ? `Saved as version ${action.version}`
            : pristine
              ? `Version ${action.version}`
              : 'Unsaved changes'}
        </span>
        <button type="button" className="secondary" disabled={pristine} onClick={() => setDraft(null)}>
          Discard
        </button>
        <button type="submit" disabled={!gate.allowed || pristine || save.isPending} title={gate.reason}>
          {save.isPending ? 'Saving…' : `Save as version ${action.version + 1}`}
        </button>
        {gate.note}
      </div>
      <FormError
        error={save.error}
        fields={[
          'model',
          'model_config',
          'prompt',
          'messages',
          'system_message',
          'tools',
          'contexts',
          'skills',
        ]}
      />
      <VersionForm draft={draft} onChange={setDraft} error={save.error} />
    </form>
  );
}
