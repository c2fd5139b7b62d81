import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type App, api, type ListEnvelope } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Field, FormError } from '../../components/Field';
import { Empty, QueryView } from '../../components/states';
import { usePagedList } from '../../paged-list';

export type Workflow = { guid: string; name: string; slug: string; app: string; created_at: string };

/** Workflows: ordered blocks that run Actions one after another. */
export default function WorkflowsList() {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const apps = useQuery({
    queryKey: ['apps'],
    queryFn: () => api<ListEnvelope<App>>('GET', '/v1/apps?limit=1000'),
  });
  const { query: workflows, pager } = usePagedList<Workflow>(['workflows'], '/v1/workflows');
  const [name, setName] = useState('');
  const [appChoice, setAppChoice] = useState('');
  const app = appChoice || apps.data?.data[0]?.guid || '';
  const create = useMutation({
    mutationFn: () => api<Workflow>('POST', '/v1/workflows', { name, app }),
    onSuccess: (workflow) => {
      void queries.invalidateQueries({ queryKey: ['workflows'] });
      navigate(`/workflows/${workflow.guid}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const appName = new Map(apps.data?.data.map((each) => [each.guid, each.name]));
  return (
    <section aria-labelledby="workflows-title">
      <header className="page-header">
        <h1 id="workflows-title">Workflows</h1>
      </header>
      <form className="form-row" onSubmit={submit} aria-label="New Workflow">
        <Field label="Name" name="name" error={create.error}>
          <input value={name} required onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label="App" name="app" error={create.error}>
          <select value={app} onChange={(event) => setAppChoice(event.target.value)}>
            {apps.data?.data.map((each) => (
              <option key={each.guid} value={each.guid}>
                {each.name}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={create.isPending || !app}>
          Create Workflow
        </button>
        <FormError error={create.error} fields={['name', 'app']} />
      </form>
      <QueryView
        query={workflows}
        what="the Workflows"
        isEmpty={(data) => data.data.length === 0}
        empty={
          <Empty title="No Workflows yet">
            <p>A Workflow chains Actions: each block's output can feed the next block's variables.</p>
          </Empty>
        }
      >
        {(data) => (
          <>
            <DataTable
              label="Workflows"
              rows={data.data}
              rowKey={(workflow) => workflow.guid}
              columns={[
                {
                  header: 'Name',
                  cell: (workflow) => (
                    <Link className="name" to={`/workflows/${workflow.guid}`}>
                      {workflow.name}
                    </Link>
                  ),
                },
                { header: 'App', cell: (workflow) => appName.get(workflow.app) ?? workflow.app },
                { header: 'Created', cell: (workflow) => new Date(workflow.created_at).toLocaleString() },
              ]}
            />
            {pager}
          </>
        )}
      </QueryView>
    </section>
  );
}
