import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { NamedOptions } from '../../../components/NamedOptions';
import { Pager } from '../../../components/Pager';
import { Empty, Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useApps } from '../../../queries/lists';
import { Deployments } from './Deployments';
import { Breadcrumbs, FolderTree } from './FolderTree';

const pageSize = 50;

/**
 * Every Action of the workspace, newest first, beside the tree of folders: a folder lists its own
 * Actions and those below it (`?folder=`, so the link can be shared); filter by App, search names
 * and slugs, page by 50.
 */
export function ActionsPage() {
  const gate = useGate('write');
  const [searchParams] = useSearchParams();
  const folder = searchParams.get('folder') ?? '';
  const [appId, setAppId] = useState('');
  const [search, setSearch] = useState('');
  const [skip, setSkip] = useState(0);
  // The search runs on the server (it covers every Action, not the page shown), once typing pauses.
  const [text, setText] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: another folder starts at its first page
  useEffect(() => setSkip(0), [folder]);
  useEffect(() => {
    const timer = setTimeout(() => {
      setText(search.trim());
      setSkip(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [search]);
  const apps = useApps();
  const actions = useQuery({
    queryKey: keys.actions.page({ appId, text, skip, folder }),
    queryFn: () =>
      api('GET /v1/actions', {
        query: {
          skip,
          limit: pageSize,
          app: appId || undefined,
          q: text || undefined,
          folder: folder || undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });
  const appName = new Map(apps.data?.data.map((app) => [app.guid, app.name]));
  const rows = actions.data?.data ?? [];

  return (
    <section aria-labelledby="actions-title" className="with-tree">
      <FolderTree current={folder} />
      <div>
        <header className="page-header">
          <div>
            <h1 id="actions-title">Actions</h1>
            {folder && <Breadcrumbs folder={folder} />}
          </div>
          <div className="filters">
            {gate.allowed && (
              <Link className="button" to="/actions/new">
                New Action
              </Link>
            )}
            <Field label="App">
              <select
                value={appId}
                onChange={(event) => {
                  setAppId(event.target.value);
                  setSkip(0);
                }}
              >
                <option value="">All Apps</option>
                <NamedOptions records={apps.data?.data} />
              </select>
            </Field>
            <Field label="Search">
              <input
                type="search"
                placeholder="Name or slug"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </Field>
          </div>
        </header>
        {actions.isPending ? (
          <Loading what="the Actions" />
        ) : actions.isError ? (
          <Failure what="the Actions" error={actions.error} />
        ) : actions.data.total_count === 0 && (text || appId || folder) ? (
          <Empty title="No Action matches">
            <p>
              No Action{' '}
              {text ? `has “${text}” in its name or slug` : appId ? 'in this App' : `is filed in ${folder}`}.
            </p>
          </Empty>
        ) : actions.data.total_count === 0 ? (
          <Empty title="No Actions yet">
            <p>
              An Action is a versioned prompt template with its model.{' '}
              <Link to="/actions/new">Create the first one</Link>.
            </p>
          </Empty>
        ) : (
          <>
            <DataTable
              label="Actions"
              rows={rows}
              columns={[
                {
                  header: 'Name',
                  cell: (action) => (
                    <>
                      <Link className="name" to={`/actions/${action.guid}/editor`}>
                        {action.name}
                      </Link>
                      {action.disabled && <span className="badge">disabled</span>}
                      <div className="muted">{action.slug}</div>
                    </>
                  ),
                },
                { header: 'App', cell: (action) => appName.get(action.app) ?? action.app },
                { header: 'Model', cell: (action) => <code>{action.model}</code> },
                { header: 'Latest', cell: (action) => `v${action.version}` },
                { header: 'Deployed', cell: (action) => <Deployments deployments={action.deployments} /> },
                {
                  header: 'Last run',
                  cell: (action) =>
                    action.last_run_at ? (
                      <Link to={`/generations?action=${action.guid}`}>
                        <time dateTime={action.last_run_at}>
                          {new Date(action.last_run_at).toLocaleString()}
                        </time>
                      </Link>
                    ) : (
                      <span className="muted">never</span>
                    ),
                },
                {
                  header: 'Updated',
                  cell: (action) => (
                    <time dateTime={action.updated_at}>{new Date(action.updated_at).toLocaleString()}</time>
                  ),
                },
              ]}
            />
            <Pager
              skip={skip}
              pageSize={pageSize}
              total={actions.data.total_count}
              hasNext={actions.data.has_next_page}
              onSkip={setSkip}
            />
          </>
        )}
      </div>
    </section>
  );
}
