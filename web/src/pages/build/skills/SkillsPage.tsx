import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useActionNames } from '../../../action-names';
import { api, type SkillType } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { ListPage } from '../../../components/ListPage';
import { Empty, QueryView } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useAllContexts, useSkillTypes } from '../../../queries/lists';

type Definition = SkillType['metadata'][number];

class SkillFormError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** The control for one metadata definition, by its type: Contexts and Actions are picked from the workspace. */
function MetadataControl({
  definition,
  value,
  onChange,
  ...labelling
}: {
  definition: Definition;
  value: string;
  onChange: (value: string) => void;
  /** The id and aria attributes Field gives its control, passed on to the element. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  const { actions } = useActionNames();
  const contexts = useAllContexts({ enabled: definition.type === 'context' });
  const options =
    definition.type === 'select'
      ? (definition.options ?? []).map((option) => [option, option])
      : definition.type === 'context'
        ? (contexts.data?.data ?? []).map((context) => [context.guid, context.name])
        : definition.type === 'action'
          ? actions.map((action) => [action.guid, action.name])
          : undefined;
  if (options)
    return (
      <select
        {...labelling}
        value={value}
        required={definition.required}
        onChange={(event) => onChange(event.target.value)}
      >
        {!definition.required && <option value="">—</option>}
        {definition.required && value === '' && <option value="">Choose…</option>}
        {options.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
    );
  if (definition.type === 'text' || definition.type === 'headers')
    return (
      <textarea
        {...labelling}
        rows={3}
        className={definition.type === 'headers' ? 'code' : undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  return (
    <input
      {...labelling}
      type={definition.type === 'url' ? 'url' : definition.type === 'integer' ? 'number' : 'text'}
      required={definition.required}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

const initialText = (definition: Definition) =>
  definition.value === null || definition.value === undefined
    ? ''
    : typeof definition.value === 'string'
      ? definition.value
      : JSON.stringify(definition.value);

/** The metadata entries the API takes, typed from the form's text; empty optional fields are left out. */
function metadataOf(type: SkillType, values: Record<string, string>) {
  return type.metadata.flatMap((definition) => {
    const text = values[definition.name] ?? initialText(definition);
    if (text.trim() === '') return [];
    if (definition.type === 'integer') return [{ name: definition.name, value: Number(text) }];
    if (definition.type === 'headers') {
      try {
        return [{ name: definition.name, value: JSON.parse(text) }];
      } catch {
        throw new SkillFormError(`metadata.${definition.name}`, 'headers must be a JSON object of strings');
      }
    }
    return [{ name: definition.name, value: text }];
  });
}

function NewSkillForm({ types }: { types: SkillType[] }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const [typeName, setTypeName] = useState(types[0]?.name ?? '');
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const type = types.find((each) => each.name === typeName);
  const create = useMutation({
    mutationFn: () =>
      api('POST /v1/skills', {
        body: {
          name,
          type: typeName,
          metadata: type ? metadataOf(type, values) : [],
        },
      }),
    onSuccess: () => {
      setName('');
      setValues({});
      void queries.invalidateQueries({ queryKey: keys.skills.all });
    },
  });
  const submit = submitWith(create);
  return (
    <form onSubmit={submit} aria-label="New Skill" className="skill-form">
      <div className="form-row">
        <Field label="Type" name="type" error={create.error}>
          <select
            value={typeName}
            onChange={(event) => {
              setTypeName(event.target.value);
              setValues({});
            }}
          >
            {types.map((each) => (
              <option key={each.guid} value={each.name}>
                {each.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Name" name="name" error={create.error}>
          <input value={name} required onChange={(event) => setName(event.target.value)} />
        </Field>
      </div>
      {type && <p className="muted">{type.description}</p>}
      {type?.metadata.map((definition) => (
        <Field
          key={`${type.name}-${definition.name}`}
          label={`${definition.name}${definition.required ? '' : ' (optional)'}`}
          name={`metadata.${definition.name}`}
          error={create.error}
          hint={definition.description}
        >
          <MetadataControl
            definition={definition}
            value={values[definition.name] ?? initialText(definition)}
            onChange={(value) => setValues({ ...values, [definition.name]: value })}
          />
        </Field>
      ))}
      <button type="submit" disabled={!gate.allowed || create.isPending} title={gate.reason}>
        Create Skill
      </button>
      {gate.note}
      <FormError error={create.error} fields={['name', 'type', 'metadata']} />
    </form>
  );
}

/** Skills (tools an Action can call, or that run on their own), made from the service's type list. */
export default function SkillsPage() {
  const types = useSkillTypes();
  return (
    <ListPage
      id="skills"
      title="Skills"
      short
      form={
        <QueryView query={types} what="the Skill types">
          {(data) => <NewSkillForm types={data.data} />}
        </QueryView>
      }
      listKey={keys.skills.all}
      read={(query) => api('GET /v1/skills', { query })}
      what="the Skills"
      empty={
        <Empty title="No Skills yet">
          <p>Attach a Skill to an Action in its editor; the model may call it as a tool.</p>
        </Empty>
      }
      columns={[
        { header: 'Name', cell: (skill) => <span className="name">{skill.name}</span> },
        { header: 'Type', cell: (skill) => skill.type },
        { header: 'Created', cell: (skill) => new Date(skill.created_at).toLocaleString() },
      ]}
    />
  );
}
