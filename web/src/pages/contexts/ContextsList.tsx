import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Context } from '../../api';
import { Field, FormError } from '../../components/Field';
import { useGate } from '../../components/gate';
import { ListPage, nameColumn } from '../../components/ListPage';
import { Empty } from '../../components/states';
import { keys } from '../../queries/keys';

function NewContextForm() {
  const gate = useGate('write');
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => api<Context>('POST', '/v1/contexts', { name, description }),
    onSuccess: (context) => {
      // The list, the editor's and the Skill form's pickers: all under the one key.
      void queries.invalidateQueries({ queryKey: keys.contexts.all });
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
      <button type="submit" disabled={!gate.allowed || create.isPending} title={gate.reason}>
        {create.isPending ? 'Creating…' : 'Create Context'}
      </button>
      {gate.note}
      <FormError error={create.error} fields={['name', 'description']} />
    </form>
  );
}

/** The workspace's document libraries; a new one opens its page to add files. */
export default function ContextsList() {
  return (
    <ListPage<Context>
      id="contexts"
      title="Contexts"
      form={<NewContextForm />}
      listKey={keys.contexts.all}
      path="/v1/contexts"
      what="the Contexts"
      empty={
        <Empty title="No Contexts yet">
          <p>
            A Context is a library of documents an Action retrieves from. Create one above, then drop files on
            it.
          </p>
        </Empty>
      }
      rowKey={(context) => context.guid}
      columns={[
        nameColumn('/contexts'),
        { header: 'Description', cell: (context) => context.description || <span className="muted">—</span> },
        { header: 'Created', cell: (context) => new Date(context.createdAt).toLocaleString() },
      ]}
    />
  );
}
