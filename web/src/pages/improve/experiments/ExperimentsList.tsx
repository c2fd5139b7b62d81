import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { ListPage, nameColumn } from '../../../components/ListPage';
import { NamedOptions } from '../../../components/NamedOptions';
import { Empty } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useApps } from '../../../queries/lists';

function NewExperimentForm() {
  const gate = useGate('write');
  const queries = useQueryClient();
  const navigate = useNavigate();
  const apps = useApps();
  const { actions } = useActionNames();
  const [name, setName] = useState('');
  const [appChoice, setAppChoice] = useState('');
  const [primary, setPrimary] = useState('');
  const [secondary, setSecondary] = useState('');
  const [split, setSplit] = useState('50');
  const app = appChoice || apps.data?.data[0]?.guid || '';
  const inApp = actions.filter((action) => action.app === app);
  const create = useMutation({
    mutationFn: () =>
      api('POST /v1/experiments', {
        body: {
          name,
          app_guid: app,
          action_primary_guid: primary || (inApp[0]?.guid ?? ''),
          action_secondary_guid: secondary || (inApp[1]?.guid ?? ''),
          split: Number(split) / 100,
        },
      }),
    onSuccess: (experiment) => {
      void queries.invalidateQueries({ queryKey: keys.experiments.all });
      navigate(`/experiments/${experiment.guid}`);
    },
  });
  const submit = submitWith(create);
  const actionSelect = (value: string, fallback: string | undefined, set: (guid: string) => void) => (
    <select value={value || fallback || ''} onChange={(event) => set(event.target.value)}>
      {inApp.map((action) => (
        <option key={action.guid} value={action.guid}>
          {action.name}
        </option>
      ))}
    </select>
  );
  return (
    <form className="form-row" onSubmit={submit} aria-label="New experiment">
      <Field label="Name" name="name" error={create.error}>
        <input value={name} required onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label="App" name="app_guid" error={create.error}>
        <select
          value={app}
          onChange={(event) => {
            setAppChoice(event.target.value);
            setPrimary('');
            setSecondary('');
          }}
        >
          <NamedOptions records={apps.data?.data} />
        </select>
      </Field>
      <Field label="Primary Action (control)" name="action_primary_guid" error={create.error}>
        {actionSelect(primary, inApp[0]?.guid, setPrimary)}
      </Field>
      <Field label="Secondary Action" name="action_secondary_guid" error={create.error}>
        {actionSelect(secondary, inApp[1]?.guid, setSecondary)}
      </Field>
      <Field label="Traffic to secondary (%)" name="split" error={create.error}>
        <input
          type="number"
          min={0}
          max={100}
          value={split}
          onChange={(event) => setSplit(event.target.value)}
        />
      </Field>
      <button
        type="submit"
        disabled={!gate.allowed || create.isPending || inApp.length < 2}
        title={gate.reason}
      >
        Create experiment
      </button>
      {gate.note}
      {inApp.length < 2 && <p className="muted">An experiment compares two Actions of one App.</p>}
      <FormError
        error={create.error}
        fields={['name', 'app_guid', 'action_primary_guid', 'action_secondary_guid', 'split']}
      />
    </form>
  );
}

/** A/B experiments between two Actions of an App. */
export default function ExperimentsList() {
  const { name } = useActionNames();
  return (
    <ListPage
      id="experiments"
      title="Experiments"
      form={<NewExperimentForm />}
      listKey={keys.experiments.all}
      read={(query) => api('GET /v1/experiments', { query })}
      what="the experiments"
      empty={
        <Empty title="No experiments yet">
          <p>Route traffic between two Actions and compare their feedback before choosing one.</p>
        </Empty>
      }
      columns={[
        nameColumn('/experiments'),
        { header: 'Primary', cell: (experiment) => name(experiment.action_primary_guid) },
        { header: 'Secondary', cell: (experiment) => name(experiment.action_secondary_guid) },
        { header: 'Split', cell: (experiment) => `${Math.round(experiment.split * 100)}% to secondary` },
        {
          header: 'Status',
          cell: (experiment) => (
            <span className={`status status-${experiment.status}`}>{experiment.status}</span>
          ),
        },
      ]}
    />
  );
}
