import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, NavLink, Route, Routes, useParams } from 'react-router';
import { type Action, api } from '../../api';
import { Failure, Loading } from '../../components/states';
import { Deployments } from './Deployments';
import { EditorTab } from './EditorTab';
import { PlaygroundTab } from './PlaygroundTab';
import { VersionsTab } from './VersionsTab';

export function useAction(guid: string) {
  return useQuery({ queryKey: ['action', guid], queryFn: () => api<Action>('GET', `/v1/actions/${guid}`) });
}

/** One Action: its editor, its versions (diff, deploy) and its playground, one tab each. */
export default function ActionPage() {
  const { guid = '' } = useParams();
  const action = useAction(guid);
  const queries = useQueryClient();
  const toggle = useMutation({
    mutationFn: (disabled: boolean) =>
      api<Action>('POST', `/v1/actions/${guid}/${disabled ? 'disable' : 'enable'}`),
    onSuccess: (updated) => {
      queries.setQueryData(['action', guid], updated);
      void queries.invalidateQueries({ queryKey: ['actions'] });
    },
  });

  if (action.isPending) return <Loading what="the Action" />;
  if (action.isError) return <Failure what="the Action" error={action.error} />;
  const current = action.data;
  return (
    <section aria-labelledby="action-title">
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
      <nav className="tabs" aria-label="Action">
        {/* Absolute paths: a relative link inside this splat route would resolve below the open tab. */}
        <NavLink to={`/actions/${guid}/editor`}>Editor</NavLink>
        <NavLink to={`/actions/${guid}/versions`}>Versions</NavLink>
        <NavLink to={`/actions/${guid}/playground`}>Playground</NavLink>
      </nav>
      <Routes>
        <Route path="editor" element={<EditorTab action={current} />} />
        <Route path="versions" element={<VersionsTab action={current} />} />
        <Route path="playground" element={<PlaygroundTab action={current} />} />
        <Route path="*" element={<Navigate to={`/actions/${guid}/editor`} replace />} />
      </Routes>
    </section>
  );
}
