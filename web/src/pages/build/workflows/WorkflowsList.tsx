import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { ListPage, nameColumn } from '../../../components/ListPage';
import { NamedOptions } from '../../../components/NamedOptions';
import { Empty } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useApps } from '../../../queries/lists';

function NewWorkflowForm() {
  const gate = useGate('write');
  const queries = useQueryClient();
  const navigate = useNavigate();
  const apps = useApps();
  const [name, setName] = useState('');
  const [appChoice, setAppChoice] = useState('');
  const app = appChoice || apps.data?.data[0]?.guid || '';
  const create = useMutation({
    mutationFn: () => api('POST /v1/workflows', { body: { name, app } }),
    onSuccess: (workflow) => {
      void queries.invalidateQueries({ queryKey: keys.workflows.all });
      navigate(`/workflows/${workflow.guid}`);
    },
  });
  const submit = submitWith(create);
  return (
    <form className="form-row" onSubmit={submit} aria-label="New Workflow">
      <Field label="Name" name="name" error={create.error}>
        <input value={name} required onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label="App" name="app" error={create.error}>
        <select value={app} onChange={(event) => setAppChoice(event.target.value)}>
          <NamedOptions records={apps.data?.data} />
        </select>
      </Field>
      <button type="submit" disabled={!gate.allowed || create.isPending || !app} title={gate.reason}>
        Create Workflow
      </button>
      {gate.note}
      <FormError error={create.error} fields={['name', 'app']} />
    </form>
  );
}

/** Workflows: ordered blocks that run Actions one after another. */
export default function WorkflowsList() {
  const apps = useApps();
  const appName = new Map(apps.data?.data.map((each) => [each.guid, each.name]));
  return (
    <ListPage
      id="workflows"
      title="Workflows"
      form={<NewWorkflowForm />}
      listKey={keys.workflows.all}
      read={(query) => api('GET /v1/workflows', { query })}
      what="the Workflows"
      empty={
        <Empty title="No Workflows yet">
          <p>A Workflow chains Actions: each block's output can feed the next block's variables.</p>
        </Empty>
      }
      columns={[
        nameColumn('/workflows'),
        { header: 'App', cell: (workflow) => appName.get(workflow.app) ?? workflow.app },
        { header: 'Created', cell: (workflow) => new Date(workflow.created_at).toLocaleString() },
      ]}
    />
  );
}
