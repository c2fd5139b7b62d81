import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api, type WorkflowBlock } from '../../../api';
import { FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { BlockEditor, type EditedBlock, newKey } from './BlockEditor';

const edited = (block: WorkflowBlock): EditedBlock => ({
  key: newKey(),
  name: block.name,
  type: block.type,
  action: block.action ?? '',
  inputs: Object.entries(block.input ?? {}).map(([variable, text]) => ({ variable, text })),
});

const stored = (block: EditedBlock) =>
  block.type === 'output'
    ? { name: block.name, type: block.type }
    : {
        name: block.name,
        type: block.type,
        action: block.action,
        ...(block.inputs.length > 0 && {
          input: Object.fromEntries(block.inputs.map((input) => [input.variable, input.text])),
        }),
      };

/** Triggers a run with key/value input and follows each block's output until the run ends. */
function RunPanel({ workflowGuid }: { workflowGuid: string }) {
  const runGate = useGate('run');
  const [entries, setEntries] = useState([{ key: 'question', value: '' }]);
  const [runGuid, setRunGuid] = useState<string | null>(null);
  const trigger = useMutation({
    mutationFn: () =>
      api('POST /v1/workflows/{guid}/trigger', {
        path: { guid: workflowGuid },
        body: {
          input: entries
            .filter((entry) => entry.key.trim())
            .map((entry) => ({ key: entry.key.trim(), value: entry.value })),
        },
      }),
    onSuccess: (answer) => setRunGuid(answer.run_guid),
  });
  const dataset = useQuery({
    queryKey: keys.workflows.run(runGuid),
    queryFn: () =>
      api('GET /v1/workflows/{guid}/result/{runGuid}/dataset', {
        path: { guid: workflowGuid, runGuid: runGuid ?? '' },
      }),
    enabled: runGuid !== null,
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' || !query.state.data ? 500 : false),
  });
  const submit = submitWith(trigger);
  return (
    <section aria-labelledby="run-title">
      <h2 id="run-title" className="section-title">
        Run
      </h2>
      <form onSubmit={submit} aria-label="Trigger a run">
        {entries.map((entry, at) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: input rows have only their place
          <div className="form-row" key={at}>
            <input
              aria-label={`Input key ${at + 1}`}
              value={entry.key}
              onChange={(event) =>
                setEntries(
                  entries.map((each, place) => (place === at ? { ...each, key: event.target.value } : each)),
                )
              }
            />
            <input
              aria-label={`Input value ${at + 1}`}
              className="wide"
              value={entry.value}
              onChange={(event) =>
                setEntries(
                  entries.map((each, place) =>
                    place === at ? { ...each, value: event.target.value } : each,
                  ),
                )
              }
            />
          </div>
        ))}
        <div className="actions-row">
          <button
            type="button"
            className="secondary"
            onClick={() => setEntries([...entries, { key: '', value: '' }])}
          >
            Add input
          </button>
          <button type="submit" disabled={!runGate.allowed || trigger.isPending} title={runGate.reason}>
            Trigger run
          </button>
          {runGate.note}
        </div>
        <FormError error={trigger.error} fields={[]} />
      </form>
      {dataset.data && (
        <>
          <p aria-live="polite">
            Run status:{' '}
            <span className={`status status-${dataset.data.status.toLowerCase()}`}>
              {dataset.data.status}
            </span>
          </p>
          <ol className="run-blocks" aria-label="Block outputs">
            {dataset.data.blocks.map((block) => (
              <li key={block.guid}>
                <strong>{block.name}</strong>{' '}
                <span className={`status status-${block.status.toLowerCase()}`}>{block.status}</span>
                {block.output && <pre className="block">{block.output}</pre>}
                {block.error && <p className="field-error">{block.error}</p>}
              </li>
            ))}
          </ol>
          {dataset.data.status === 'SUCCESS' && (
            <p>
              Result: <strong>{dataset.data.final}</strong>
            </p>
          )}
        </>
      )}
      {dataset.isError && <Failure what="the run" error={dataset.error} />}
    </section>
  );
}

/** One Workflow: edit, reorder and save its blocks; trigger a run and watch each block. */
export default function WorkflowPage() {
  const gate = useGate('write');
  const { guid = '' } = useParams();
  const queries = useQueryClient();
  const { actions } = useActionNames();
  const workflow = useQuery({
    queryKey: keys.workflows.one(guid),
    queryFn: () => api('GET /v1/workflows/{guid}', { path: { guid } }),
  });
  const blocks = useQuery({
    queryKey: keys.workflows.blocks(guid),
    queryFn: () => api('GET /v1/workflows/{guid}/blocks', { path: { guid } }),
  });
  const [draft, setDraft] = useState<EditedBlock[] | null>(null);
  useEffect(() => {
    if (blocks.data && draft === null) setDraft(blocks.data.blocks.map(edited));
  }, [blocks.data, draft]);
  const save = useMutation({
    mutationFn: () =>
      api('PUT /v1/workflows/{guid}/blocks', {
        path: { guid },
        body: {
          blocks: (draft ?? []).map(stored),
        },
      }),
    onSuccess: (answer) => {
      queries.setQueryData(keys.workflows.blocks(guid), answer);
      setDraft(answer.blocks.map(edited));
    },
  });
  if (workflow.isPending || blocks.isPending || draft === null) return <Loading what="the Workflow" />;
  if (workflow.isError) return <Failure what="the Workflow" error={workflow.error} />;
  if (blocks.isError) return <Failure what="the blocks" error={blocks.error} />;
  const move = (at: number, offset: -1 | 1) => {
    const next = [...draft];
    [next[at], next[at + offset]] = [next[at + offset]!, next[at]!];
    setDraft(next);
  };
  const submit = submitWith(save);
  const dirty =
    JSON.stringify(draft.map(stored)) !== JSON.stringify(blocks.data.blocks.map(edited).map(stored));
  return (
    <section aria-labelledby="workflow-title">
      <header className="page-header">
        <h1 id="workflow-title">{workflow.data.name}</h1>
      </header>
      <form onSubmit={submit} aria-label="Blocks">
        <p className="muted">
          Blocks run in order. A variable's text may use <code>{'{{input.KEY}}'}</code> (the run's input) and{' '}
          <code>{'{{blocks.NAME}}'}</code> (an earlier block's output).
        </p>
        {draft.length === 0 && <p className="muted">No blocks yet.</p>}
        <ol className="blocks">
          {draft.map((block, at) => (
            <BlockEditor
              key={block.key}
              block={block}
              index={at}
              count={draft.length}
              actions={actions}
              onChange={(changed) => setDraft(draft.map((each, place) => (place === at ? changed : each)))}
              onMove={(offset) => move(at, offset)}
              onRemove={() => setDraft(draft.filter((_, place) => place !== at))}
            />
          ))}
        </ol>
        <div className="actions-row">
          <button
            type="button"
            className="secondary"
            onClick={() =>
              setDraft([
                ...draft,
                { key: newKey(), name: `step_${draft.length + 1}`, type: 'action', action: '', inputs: [] },
              ])
            }
          >
            Add block
          </button>
          <button type="submit" disabled={!gate.allowed || !dirty || save.isPending} title={gate.reason}>
            {save.isPending ? 'Saving…' : 'Save blocks'}
          </button>
          {gate.note}
          <span className="muted" aria-live="polite">
            {dirty ? 'Unsaved changes' : save.isSuccess ? 'Saved.' : ''}
          </span>
        </div>
        <FormError error={save.error} fields={[]} />
      </form>
      <RunPanel workflowGuid={guid} />
    </section>
  );
}
