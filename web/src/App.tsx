import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, NavLink, Route, Routes } from 'react-router';
import { ApiError, api, type SignedIn } from './api';
import { ActionsPage } from './pages/Actions';
import { SignInPage } from './pages/SignIn';

/** The signed-in workspace, or null when there is no session (a 401 is an answer here, not an error). */
function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        return await api<SignedIn>('GET', '/console/v1/session');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
  });
}

export function App() {
  const session = useSession();
  const queries = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => api('DELETE', '/console/v1/session'),
    onSuccess: () => queries.clear(),
  });

  if (session.isPending) return <p className="page-state">Loading…</p>;
  if (session.isError)
    return (
      <p className="page-state" role="alert">
        The service did not answer: {session.error.message}
      </p>
    );
  if (!session.data)
    return <SignInPage onSignedIn={() => queries.invalidateQueries({ queryKey: ['session'] })} />;

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Areas">
        <div className="brand">Lectern</div>
        <div className="workspace" title="Signed-in workspace">
          {session.data.workspace.name}
        </div>
        <NavLink to="/actions">Actions</NavLink>
        <button type="button" className="link-button" onClick={() => signOut.mutate()}>
          Sign out
        </button>
      </nav>
      <main className="content">
        <Routes>
          <Route path="/actions" element={<ActionsPage />} />
          <Route path="*" element={<Navigate to="/actions" replace />} />
        </Routes>
      </main>
    </div>
  );
}
