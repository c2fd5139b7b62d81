import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, NavLink, Route, Routes, useParams } from 'react-router';
import { api } from '../../../api';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { Deployments } from './Deployments';
import { type Draft, draftOf } from './draft';
import { EditorTab } from './EditorTab';
import { Breadcrumbs } from './FolderTree';
import { MoveAction } from './MoveAction';
import { PlaygroundTab } from './PlaygroundTab';
import { VersionsTab } from './VersionsTab';

export function useAction(guid: string) {
  return useQuery({
    queryKey: keys.actions.one(guid),
    queryFn: () => api('GET /v1/actions/{guidOrSlug}', { path: { guidOrSlug: guid } }),
  });
}

/** One Action: its editor, its versions (diff, deploy) and its playground, one tab each. */
export default function ActionPage() {
  const { guid = '' } = useParams();
  const action = useAction(guid);
  const queries = useQueryClient();
  // The editor's unsaved changes (none: null), kept across tabs so the playground can run them, and
  // tied to their Action: this page stays mounted when the route moves to another Action.
  // Its base is the version the edit started from, which the save names (base_version).
  const [editing, setEditing] = useState<{ guid: string; draft: Draft; base: number } | null>(null);
  const own = editing?.guid === guid ? editing : null;
  const edited = own?.draft ?? null;
  const setEdited = (draft: Draft | null, base?: number) =>
    setEditing(draft ? { guid, draft, base: base ?? own?.base ?? action.data?.version ?? 1 } : null);
  const toggle = useMutation({
    mutationFn: (disabled: boolean) =>
      disabled
        ? api('POST /v1/actions/{guid}/disable', { path: { guid } })
        : api('POST /v1/actions/{guid}/enable', { path: { guid } }),
    onSuccess: (updated) => {
      queries.setQueryData(keys.actions.one(guid), updated);
      void queries.invalidateQueries({ queryKey: keys.actions.all });
    },
  });

  if (action.isPending) return <Loading what="the Action" />;
  if (action.isError) return <Failure what="the Action" error={action.error} />;
  const current = action.data;
  const draft = edited ?? draftOf(current);
  const unsaved = edited !== null && JSON.stringify(edited) !== JSON.stringify(draftOf(current));
  return (
    <section aria-labelledby="action-title">
      <Breadcrumbs folder={current.folder} last={current.name} />
      <header className="page-header">
        <div>
          <h1 id="action-title">
            {current.name}
            {current.disabled && <span className="badge">disabled</span>}
          </h1>
          <div className="muted subtitle">
            <code>{current.slug}</code> · latest v{current.version} ·{' '}
            <Deployments deployments={current.deployments} />
          </div>
        </div>
        <div className="actions-row">
          <button
            type="button"
            className="secondary"
            disabled={toggle.isPending}
            onClick={() => toggle.mutate(!current.disabled)}
          >
            {current.disabled ? 'Enable' : 'Disable'}
          </button>
        </div>
      </header>
      {toggle.isError && (
        <p className="field-error" role="alert">
          {toggle.error.message}
        </p>
      )}
      <MoveAction key={current.guid} action={current} />
      <nav className="tabs" aria-label="Action">
        {/* Absolute paths: a relative link inside this splat route would resolve below the open tab. */}
        <NavLink to={`/actions/${guid}/editor`}>
          Editor
          {unsaved && (
            <span title="Unsaved changes">
              {' •'}
              <span className="visually-hidden"> (unsaved changes)</span>
            </span>
          )}
        </NavLink>
        <NavLink to={`/actions/${guid}/versions`}>Versions</NavLink>
        <NavLink to={`/actions/${guid}/playground`}>Playground</NavLink>
      </nav>
      <Routes>
        <Route
          path="editor"
          element={
            <EditorTab
              action={current}
              draft={draft}
              baseVersion={own?.base ?? current.version}
              setDraft={setEdited}
            />
          }
        />
        <Route path="versions" element={<VersionsTab action={current} />} />
        <Route
          path="playground"
          element={<PlaygroundTab action={current} draft={unsaved ? draft : undefined} />}
        />
        <Route path="*" element={<Navigate to={`/actions/${guid}/editor`} replace />} />
      </Routes>
    </section>
  );
}
