import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Navigate, NavLink, Route, Routes } from 'react-router';
import { ApiError, api, forgetSignIn, mayBeSignedIn } from './api';
import { Loading } from './components/states';
import { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
import { ActionsPage } from './pages/build/actions/ActionsList';
import { LinkPage, linkPageOf } from './pages/LinkPages';
import { SignInPage } from './pages/SignIn';
import { keys } from './queries/keys';

// The editor (CodeMirror, Liquid) and the charts (uPlot) load when first opened, not with the sign-in.
const NewActionPage = lazy(() => import('./pages/build/actions/NewAction'));
const ActionPage = lazy(() => import('./pages/build/actions/ActionPage'));
const GenerationsPage = lazy(() => import('./pages/observe/generations/GenerationsPage'));
const TracesPage = lazy(() => import('./pages/observe/traces/TracesPage'));
const TracePage = lazy(() => import('./pages/observe/traces/TracePage'));
const DashboardPage = lazy(() => import('./pages/observe/dashboard/DashboardPage'));
const ContextsList = lazy(() => import('./pages/build/contexts/ContextsList'));
const ContextPage = lazy(() => import('./pages/build/contexts/ContextPage'));
const ExperimentsList = lazy(() => import('./pages/improve/experiments/ExperimentsList'));
const ExperimentPage = lazy(() => import('./pages/improve/experiments/ExperimentPage'));
const SessionsPage = lazy(() => import('./pages/observe/sessions/SessionsPage'));
const SessionPage = lazy(() =>
  import('./pages/observe/sessions/SessionsPage').then((module) => ({ default: module.SessionPage })),
);
const WorkflowsList = lazy(() => import('./pages/build/workflows/WorkflowsList'));
const WorkflowPage = lazy(() => import('./pages/build/workflows/WorkflowPage'));
const SkillsPage = lazy(() => import('./pages/build/skills/SkillsPage'));
const DatasetsList = lazy(() => import('./pages/improve/datasets/DatasetsList'));
const SnippetsList = lazy(() => import('./pages/build/snippets/SnippetsList'));
const SnippetPage = lazy(() => import('./pages/build/snippets/SnippetPage'));
const DatasetPage = lazy(() => import('./pages/improve/datasets/DatasetPage'));
const EvaluatorsPage = lazy(() => import('./pages/improve/evaluators/EvaluatorsPage'));
const EvaluationsList = lazy(() => import('./pages/improve/evaluations/EvaluationsList'));
const EvaluationPage = lazy(() => import('./pages/improve/evaluations/EvaluationPage'));
const ComparePage = lazy(() => import('./pages/improve/evaluations/ComparePage'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage'));
const ReviewQueuesPage = lazy(() => import('./pages/improve/review/ReviewQueuesPage'));
const ReviewQueuePage = lazy(() => import('./pages/improve/review/ReviewQueuePage'));
const ReviewSession = lazy(() => import('./pages/improve/review/ReviewSession'));

/**
 * The sidebar's areas grouped as a team works: build the prompts and what they use, observe what they
 * do in production, improve them. Settings stand apart, below the groups.
 */
const areaGroups: { name: string; areas: [path: string, label: string][] }[] = [
  {
    name: 'Build',
    areas: [
      ['/actions', 'Actions'],
      ['/snippets', 'Snippets'],
      ['/contexts', 'Contexts'],
      ['/skills', 'Skills'],
      ['/workflows', 'Workflows'],
    ],
  },
  {
    name: 'Observe',
    areas: [
      ['/generations', 'Generations'],
      ['/traces', 'Traces'],
      ['/sessions', 'Sessions'],
      ['/dashboard', 'Dashboard'],
    ],
  },
  {
    name: 'Improve',
    areas: [
      ['/datasets', 'Datasets'],
      ['/evaluators', 'Evaluators'],
      ['/evaluations', 'Evaluations'],
      ['/experiments', 'Experiments'],
      ['/review', 'Review'],
    ],
  },
];

/** A reviewer sees the Review area alone: every other area's routes answer them 403. */
const reviewerAreas = [{ name: 'Improve', areas: [['/review', 'Review']] as [string, string][] }];

/** The signed-in workspace, or null when there is no session (a 401 is an answer here, not an error). */
function useSession() {
  return useQuery({
    queryKey: keys.session,
    queryFn: async () => {
      if (!mayBeSignedIn()) return null;
      try {
        return await api('GET /console/v1/session');
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
    mutationFn: () => api('DELETE /console/v1/session'),
    onSuccess: () => forgetSignIn(queries),
  });
  const [linkPage, setLinkPage] = useState(() => linkPageOf(window.location.pathname));

  // A single-use link (setup, invitation, password reset) opens its own page, signed in or not.
  if (linkPage)
    return (
      <LinkPage
        page={linkPage}
        onSignedIn={() => {
          setLinkPage(undefined);
          void queries.invalidateQueries({ queryKey: keys.session });
        }}
      />
    );

  if (session.isPending) return <p className="page-state">Loading…</p>;
  if (session.isError)
    return (
      <p className="page-state" role="alert">
        The service did not answer: {session.error.message}
      </p>
    );
  if (!session.data)
    return <SignInPage onSignedIn={() => queries.invalidateQueries({ queryKey: keys.session })} />;
  const reviewer = session.data.role === 'reviewer';

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Areas">
        <div className="brand">Lectern</div>
        <WorkspaceSwitcher session={session.data} />
        <div className="who" title="Signed in as">
          {session.data.user ? session.data.user.name || session.data.user.email : 'API key'} ·{' '}
          {session.data.role}
        </div>
        {(reviewer ? reviewerAreas : areaGroups).map((group) => (
          <section key={group.name} className="area-group" aria-labelledby={`areas-${group.name}`}>
            <h2 id={`areas-${group.name}`}>{group.name}</h2>
            {group.areas.map(([path, label]) => (
              <NavLink key={path} to={path}>
                {label}
              </NavLink>
            ))}
          </section>
        ))}
        <NavLink to="/settings">Settings</NavLink>
        <button type="button" className="link-button" onClick={() => signOut.mutate()}>
          Sign out
        </button>
      </nav>
      <main className="content">
        <Suspense fallback={<Loading what="the page" />}>
          {reviewer ? (
            <Routes>
              <Route path="/review" element={<ReviewQueuesPage />} />
              <Route path="/review/:guid" element={<ReviewQueuePage />} />
              <Route path="/review/:guid/reviewing" element={<ReviewSession />} />
              <Route path="/settings" element={<SettingsPage session={session.data} />} />
              <Route path="*" element={<Navigate to="/review" replace />} />
            </Routes>
          ) : (
            <Routes>
              <Route path="/actions" element={<ActionsPage />} />
              <Route path="/actions/new" element={<NewActionPage />} />
              <Route path="/actions/:guid/*" element={<ActionPage />} />
              <Route path="/generations" element={<GenerationsPage />} />
              <Route path="/traces" element={<TracesPage />} />
              <Route path="/traces/:traceId" element={<TracePage />} />
              <Route path="/dashboard" element={<DashboardPage />} />
              <Route path="/contexts" element={<ContextsList />} />
              <Route path="/contexts/:guid" element={<ContextPage />} />
              <Route path="/experiments" element={<ExperimentsList />} />
              <Route path="/experiments/:guid" element={<ExperimentPage />} />
              <Route path="/workflows" element={<WorkflowsList />} />
              <Route path="/workflows/:guid" element={<WorkflowPage />} />
              <Route path="/skills" element={<SkillsPage />} />
              <Route path="/snippets" element={<SnippetsList />} />
              <Route path="/snippets/:guid" element={<SnippetPage />} />
              <Route path="/datasets" element={<DatasetsList />} />
              <Route path="/datasets/:guid" element={<DatasetPage />} />
              <Route path="/evaluators" element={<EvaluatorsPage />} />
              <Route path="/evaluations" element={<EvaluationsList />} />
              <Route path="/evaluations/compare" element={<ComparePage />} />
              <Route path="/evaluations/:guid" element={<EvaluationPage />} />
              <Route path="/sessions" element={<SessionsPage />} />
              <Route path="/sessions/:guid" element={<SessionPage />} />
              <Route path="/review" element={<ReviewQueuesPage />} />
              <Route path="/review/:guid" element={<ReviewQueuePage />} />
              <Route path="/review/:guid/reviewing" element={<ReviewSession />} />
              <Route path="/settings" element={<SettingsPage session={session.data} />} />
              <Route path="*" element={<Navigate to="/actions" replace />} />
            </Routes>
          )}
        </Suspense>
      </main>
    </div>
  );
}
