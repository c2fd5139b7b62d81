import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { type Action, ApiError, api } from '../../../api';
import { FormError } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { keys } from '../../../queries/keys';
import { type Draft, draftOf, versionBody } from './draft';
import { SaveConflict } from './SaveConflict';
import { VersionForm } from './VersionForm';

/** The version another save made, when this one was refused for starting from an older one. */
function conflictOf(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.code !== 'version_conflict') return undefined;
  const details = error.details as { latest_version?: unknown } | undefined;
  return typeof details?.latest_version === 'number' ? details.latest_version : undefined;
}

/**
 * Edits the latest version; saving makes a new version and deploys nothing. The draft is held by the
 * Action's page, so the playground can run it before it is saved. A save names the version the
 * draft started from (`base_version`): when someone saved since, nothing is overwritten.
 */
export function EditorTab({
  action,
  draft,
  baseVersion,
  setDraft,
}: {
  action: Action;
  draft: Draft;
  baseVersion: number;
  setDraft: (draft: Draft | null, baseVersion?: number) => void;
}) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const pristine = JSON.stringify(draft) === JSON.stringify(draftOf(action));

  const save = useMutation({
    mutationFn: (base: number) =>
      api('PUT /v1/actions/{guid}', {
        path: { guid: action.guid },
        body: { ...versionBody(draft), base_version: base },
      }),
    onSuccess: (updated) => {
      queries.setQueryData(keys.actions.one(action.guid), updated);
      void queries.invalidateQueries({ queryKey: keys.actions.versions(action.guid) });
      void queries.invalidateQueries({ queryKey: keys.actions.all });
      setDraft(null);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(baseVersion);
  };
  const conflict = conflictOf(save.error);

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
      {conflict !== undefined && (
        <SaveConflict
          action={action}
          latestVersion={conflict}
          draft={versionBody(draft)}
          onKeepMine={(latest) => {
            setDraft(draft, latest);
            save.mutate(latest);
          }}
          onTakeTheirs={() => {
            setDraft(null);
            save.reset();
            void queries.invalidateQueries({ queryKey: keys.actions.one(action.guid) });
          }}
        />
      )}
      <FormError
        error={conflict === undefined ? save.error : null}
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
