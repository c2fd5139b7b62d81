import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, type Context } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Field, FormError } from '../../components/Field';
import { Empty, QueryView } from '../../components/states';
import { usePagedList } from '../../paged-list';

function NewContextForm() {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => api<Context>('POST', '/v1/contexts', { name, description }),
    onSuccess: (context) => {
      void queries.invalidateQueries({ queryKey: ['contexts'] });
      // The editor's and the Skill form's pickers list Contexts too.
      void queries.invalidateQueries({ queryKey: ['/v1/contexts'] });
      navigate(`/contexts/${context.guid}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="form-row" onSubmit={submit} aria-label="New Context">
      <Field label="Name" name="name" error={create.error}>
        <input value={name} required onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label="Description" name="description" error={create.error}>
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create Context'}
      </button>
      <FormError error={create.error} fields={['name', 'description']} />
    </form>
  );
}

/** The workspace's document libraries; a new one opens its page to add files. */
export default function ContextsList() {
  const { query: contexts, pager } = usePagedList<Context>(['contexts'], '/v1/contexts');
  return (
    <section aria-labelledby="contexts-title">
      <header className="page-header">
        <h1 id="contexts-title">Contexts</h1>
      </header>
      <NewContextForm />
      <QueryView
        query={contexts}
        what="the Contexts"
        isEmpty={(data) => data.total_count === 0}
        empty={
          <Empty title="No Contexts yet">
            <p>
              A Context is a library of documents an Action retrieves from. Create one above, then drop files
              on it.
            </p>
          </Empty>
        }
      >
        {(data) => (
          <>
            <DataTable
              label="Contexts"
              rows={data.data}
              rowKey={(context) => context.guid}
              columns={[
                {
                  header: 'Name',
                  cell: (context) => (
                    <Link className="name" to={`/contexts/${context.guid}`}>
                      {context.name}
                    </Link>
                  ),
                },
                {
                  header: 'Description',
                  cell: (context) => context.description || <span className="muted">—</span>,
                },
                { header: 'Created', cell: (context) => new Date(context.createdAt).toLocaleString() },
              ]}
            />
            {pager}
          </>
        )}
      </QueryView>
    </section>
  );
}
