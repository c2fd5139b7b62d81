import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Action, api } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { keys } from '../../../queries/keys';

/** Files the Action in another folder: no new version, so nothing that runs changes. */
export function MoveAction({ action }: { action: Action }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const [folder, setFolder] = useState(action.folder);
  const move = useMutation({
    mutationFn: () => api('PUT /v1/actions/{guid}', { path: { guid: action.guid }, body: { folder } }),
    onSuccess: (updated) => {
      queries.setQueryData(keys.actions.one(action.guid), updated);
      void queries.invalidateQueries({ queryKey: keys.actions.all });
      void queries.invalidateQueries({ queryKey: keys.folders.all });
    },
  });
  const submit = submitWith(move);
  return (
    <form className="form-row move-form" onSubmit={submit} aria-label="Move the Action">
      <Field
        label="Folder"
        name="folder"
        error={move.error}
        hint="Empty for the top level, or e.g. support/billing"
      >
        <input value={folder} onChange={(event) => setFolder(event.target.value)} />
      </Field>
      <button
        type="submit"
        className="secondary"
        disabled={!gate.allowed || move.isPending || folder === action.folder}
        title={gate.reason}
      >
        {move.isPending ? 'Moving…' : 'Move'}
      </button>
      <span className="muted" aria-live="polite">
        {move.isSuccess && folder === action.folder ? `Moved to ${action.folder || 'the top level'}` : ''}
      </span>
      <FormError error={move.error} fields={['folder']} />
    </form>
  );
}
