import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type EvaluatorTypeName, evaluatorTypeNames } from '../../../../../src/contract';
import { api } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { ListPage } from '../../../components/ListPage';
import { Empty } from '../../../components/states';
import { ValueSelect } from '../../../components/ValueSelect';
import { keys } from '../../../queries/keys';

/** Each type with what it scores and a starting `config` (docs/evaluations.md#evaluators). */
const evaluatorTypes: Record<EvaluatorTypeName, { description: string; config: Record<string, unknown> }> = {
  exact_match: { description: '1 when the output equals the expected output, trimmed', config: {} },
  contains: {
    description: '1 when the output contains config.value, or else the expected output',
    config: { value: '' },
  },
  regex: { description: '1 when config.pattern matches the output', config: { pattern: '', flags: 'i' } },
  json_valid: {
    description: '1 when the output is JSON meeting config.schema (a JSON Schema)',
    config: { schema: { type: 'object' } },
  },
  similarity: { description: 'How close the output is to the expected output (embeddings)', config: {} },
  llm_judge: {
    description: 'A judge Action’s score of the output (its variables: input, output, expected_output)',
    config: { action: '', min: 0, max: 1 },
  },
  latency: { description: '1 when the run took at most config.max_ms', config: { max_ms: 2000 } },
  cost: { description: '1 when the run cost at most config.max_usd', config: { max_usd: 0.01 } },
};

class ConfigError extends Error {
  readonly field = 'config';
}

function configOf(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw new ConfigError('config: not valid JSON');
  }
}

function NewEvaluatorForm() {
  const gate = useGate('write');
  const runGate = useGate('run');
  const queries = useQueryClient();
  const [type, setType] = useState<EvaluatorTypeName>('exact_match');
  const [name, setName] = useState('');
  const [config, setConfig] = useState('{}');
  const [output, setOutput] = useState('');
  const [expected, setExpected] = useState('');
  const chooseType = (next: EvaluatorTypeName) => {
    setType(next);
    setConfig(JSON.stringify(evaluatorTypes[next].config, null, 2));
  };
  const create = useMutation({
    mutationFn: () => api('POST /v1/evaluators', { body: { name, type, config: configOf(config) } }),
    onSuccess: () => {
      setName('');
      void queries.invalidateQueries({ queryKey: keys.evaluators.all });
    },
  });
  const test = useMutation({
    mutationFn: () =>
      api('POST /v1/evaluators/test', {
        body: {
          type,
          config: configOf(config),
          output,
          expected_output: expected === '' ? null : expected,
        },
      }),
  });
  const submit = submitWith(create);
  return (
    <form onSubmit={submit} aria-label="New evaluator" className="skill-form">
      <div className="form-row">
        <Field label="Type" name="type" error={create.error}>
          <ValueSelect values={evaluatorTypeNames} value={type} onChoose={chooseType} />
        </Field>
        <Field label="Name" name="name" error={create.error}>
          <input value={name} required onChange={(event) => setName(event.target.value)} />
        </Field>
      </div>
      <p className="muted">{evaluatorTypes[type].description}</p>
      <Field label="Settings (JSON)" name="config" error={create.error ?? test.error}>
        <textarea
          className="code"
          rows={4}
          value={config}
          onChange={(event) => setConfig(event.target.value)}
        />
      </Field>
      <fieldset className="panel">
        <legend>Try it on one output</legend>
        <div className="form-row">
          <Field label="Output" name="output" error={test.error}>
            <textarea rows={2} value={output} onChange={(event) => setOutput(event.target.value)} />
          </Field>
          <Field label="Expected output (optional)" name="expected_output" error={test.error}>
            <textarea rows={2} value={expected} onChange={(event) => setExpected(event.target.value)} />
          </Field>
          <button
            type="button"
            className="secondary"
            disabled={!runGate.allowed || test.isPending}
            title={runGate.reason}
            onClick={() => test.mutate()}
          >
            Test
          </button>
        </div>
        {test.isSuccess && (
          <p role="status">
            {test.data.score === null ? `No score: ${test.data.error}` : `Score ${test.data.score}`}
          </p>
        )}
        <FormError error={test.error} fields={['config', 'output', 'expected_output']} />
      </fieldset>
      <button type="submit" disabled={!gate.allowed || create.isPending} title={gate.reason}>
        Create evaluator
      </button>
      {gate.note}
      <FormError error={create.error} fields={['name', 'type', 'config']} />
    </form>
  );
}

/** Evaluators: how an output is scored, made from the list of types and tried before saving. */
export default function EvaluatorsPage() {
  return (
    <ListPage
      id="evaluators"
      title="Evaluators"
      short
      form={<NewEvaluatorForm />}
      listKey={keys.evaluators.all}
      read={(query) => api('GET /v1/evaluators', { query })}
      what="the evaluators"
      empty={
        <Empty title="No evaluators yet">
          <p>
            An evaluator scores an Action’s output from 0 to 1. Choose a type above and try it on an output.
          </p>
        </Empty>
      }
      columns={[
        { header: 'Name', cell: (evaluator) => <span className="name">{evaluator.name}</span> },
        { header: 'Type', cell: (evaluator) => evaluator.type },
        {
          header: 'Settings',
          cell: (evaluator) => <code className="muted">{JSON.stringify(evaluator.config)}</code>,
        },
        { header: 'Created', cell: (evaluator) => new Date(evaluator.created_at).toLocaleString() },
      ]}
    />
  );
}
