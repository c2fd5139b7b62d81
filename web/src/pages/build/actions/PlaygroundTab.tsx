import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { type Action, type ActionVersion, api, type VersionFields } from '../../../api';
import { Field } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { keys } from '../../../queries/keys';
import { useAllSnippets } from '../../../queries/lists';
import { type RunRequest, type StreamState, useStreamRun } from '../../../stream-run';
import { templateVariables } from '../../../template-variables';
import { contextVariable, type Draft, templatesOf, versionBody } from './draft';

/**
 * What a panel runs: a deployed environment (`env:production`), a saved version (`v:3`), or the
 * editor's unsaved draft (`draft`).
 */
type Target = string;

/** The version fields of a saved version, as a draft carries them. */
function fieldsOf(version: ActionVersion): Omit<VersionFields, 'snippets'> {
  const { model, model_config, prompt, messages, system_message, contexts, skills, tools } = version;
  return { model, model_config, prompt, messages, system_message, contexts, skills, tools };
}

/**
 * The run request's part that picks what runs. Another model for a panel makes it a draft: the
 * chosen version's fields with that model, so two models can answer the same version side by side.
 */
function targetBody(
  action: Action,
  target: Target,
  draft: Draft | undefined,
  model: string,
  versions: Map<number, ActionVersion>,
): Omit<RunRequest, 'input'> {
  if (target === 'draft') {
    if (!draft) return {};
    const fields = versionBody(draft);
    return { draft: model ? { ...fields, model } : fields };
  }
  if (model) {
    const version = versions.get(targetVersion(action, target));
    if (version) return { draft: { ...fieldsOf(version), model } };
  }
  const [kind, value] = target.split(':') as [string, string];
  return kind === 'env' ? { environment: value } : { version: Number(value) };
}

function targetVersion(action: Action, target: Target): number {
  const [kind, value] = target.split(':') as [string, string];
  return kind === 'env' ? (action.deployments[value] ?? action.version) : Number(value);
}

function TargetPicker({
  action,
  versions,
  value,
  onChange,
  label,
  hasDraft,
}: {
  action: Action;
  versions: ActionVersion[];
  value: Target;
  onChange: (target: Target) => void;
  label: string;
  hasDraft: boolean;
}) {
  return (
    <Field label={label}>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {hasDraft && <option value="draft">unsaved draft (editor)</option>}
        {Object.entries(action.deployments).map(([environment, version]) => (
          <option key={environment} value={`env:${environment}`}>
            {environment} (v{version})
          </option>
        ))}
        {versions.map((version) => (
          <option key={version.version} value={`v:${version.version}`}>
            version {version.version}
          </option>
        ))}
      </select>
    </Field>
  );
}

const money = (value: number | undefined) => (value === undefined ? '—' : `$${value.toFixed(6)}`);

/** One run's live output, then what was stored: the prompt sent, tokens, latency, cost, a link. */
function RunOutput({ state }: { state: StreamState }) {
  const dataGuid = 'dataGuid' in state ? state.dataGuid : undefined;
  const finished = state.status === 'done';
  // The generation is stored as the stream ends; a moment's retry covers the write.
  const stored = useQuery({
    queryKey: keys.generations.one(dataGuid ?? ''),
    queryFn: () => api('GET /v1/data/{guid}', { path: { guid: dataGuid ?? '' } }),
    enabled: finished && Boolean(dataGuid),
    retry: 5,
    retryDelay: 200,
  });
  if (state.status === 'idle') return <p className="muted">Run to see the answer stream in.</p>;
  if (state.status === 'starting')
    return (
      <p className="muted" aria-busy="true">
        Starting…
      </p>
    );
  const record = stored.data;
  return (
    <div className="run-output">
      <pre className="answer" role="log" aria-label="Answer" data-status={state.status}>
        {state.text}
        {state.status === 'streaming' && <span className="caret" aria-hidden="true" />}
      </pre>
      {state.status === 'failed' && (
        <p className="field-error" role="alert">
          {state.message}
        </p>
      )}
      {finished && (
        <dl className="facts">
          <dt>First token</dt>
          <dd>{state.firstTokenMs === undefined ? '—' : `${Math.round(state.firstTokenMs)} ms`}</dd>
          <dt>Latency</dt>
          <dd>{record?.latency_ms == null ? '…' : `${record.latency_ms} ms`}</dd>
          <dt>Tokens</dt>
          <dd>
            {record ? `${record.num_input_tokens ?? '—'} in · ${record.num_output_tokens ?? '—'} out` : '…'}
          </dd>
          <dt>Cost</dt>
          <dd>{record ? money(record.cost?.generation) : '…'}</dd>
          <dt>Generation</dt>
          <dd>
            <Link to={`/generations?open=${state.dataGuid}`}>{state.dataGuid}</Link>
          </dd>
        </dl>
      )}
      {record?.full_prompt_sent && (
        <details>
          <summary>Prompt sent</summary>
          {record.full_prompt_sent.map((message, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the messages of one stored prompt
            <div key={index} className="sent-message">
              <span className="role">{message.role}</span>
              <pre>
                {typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}
              </pre>
            </div>
          ))}
        </details>
      )}
      {stored.isError && (
        <p className="field-error">Could not read the stored generation: {stored.error.message}</p>
      )}
    </div>
  );
}

/**
 * Runs saved versions with a form made from their variables; tokens stream in live. Compare runs the
 * same input on a second version side by side.
 */
export function PlaygroundTab({ action, draft }: { action: Action; draft?: Draft }) {
  const runGate = useGate('run');
  const versions = useQuery({
    queryKey: keys.actions.versions(action.guid),
    queryFn: () =>
      api('GET /v1/actions/{guid}/versions', { path: { guid: action.guid }, query: { limit: 1000 } }),
  });
  const firstTarget = draft
    ? 'draft'
    : action.deployments[action.default_environment] !== undefined
      ? `env:${action.default_environment}`
      : `v:${action.version}`;
  const [targets, setTargets] = useState<Target[]>([firstTarget]);
  // Per panel: another model to run the chosen version with ('' keeps the version's own).
  const [models, setModels] = useState(['', '']);
  const [values, setValues] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const left = useStreamRun();
  const right = useStreamRun();
  const runs = [left, right];
  const list = versions.data?.data ?? [];

  const snippets = useAllSnippets().data?.data;
  const variables = useMemo(() => {
    const byNumber = new Map(list.map((version) => [version.version, version]));
    const templates = targets.flatMap((target) => {
      if (target === 'draft')
        return draft
          ? [
              draft.systemMessage,
              ...(draft.mode === 'prompt' ? [draft.prompt] : draft.messages.map((m) => m.content)),
            ]
          : [];
      const version = byNumber.get(targetVersion(action, target));
      return version ? templatesOf(version) : [];
    });
    return templateVariables(templates, snippets).variables.filter((name) => name !== contextVariable);
  }, [list, targets, action, draft, snippets]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input =
      variables.length > 0
        ? Object.fromEntries(variables.map((name) => [name, values[name] ?? '']))
        : message;
    targets.forEach((target, index) => {
      let body: Record<string, unknown>;
      try {
        body = targetBody(
          action,
          target,
          draft,
          models[index]!.trim(),
          new Map(list.map((version) => [version.version, version])),
        );
      } catch (error) {
        // The draft's JSON fields do not parse: the run cannot start; say why where its answer goes.
        runs[index]!.fail((error as Error).message);
        return;
      }
      void runs[index]!.start(action.guid, { input, ...body });
    });
  };
  const running = runs.some((run) => run.state.status === 'starting' || run.state.status === 'streaming');

  return (
    <div className="playground">
      <form onSubmit={submit} className="playground-form" aria-label="Run input">
        <div className="form-row">
          {targets.map((target, index) => (
            <fieldset key={index === 0 ? 'left' : 'right'} className="target">
              <legend>{index === 0 ? 'Run' : 'Compare with'}</legend>
              <TargetPicker
                label="Version"
                action={action}
                versions={list}
                value={target}
                hasDraft={Boolean(draft)}
                onChange={(next) => setTargets(targets.map((each, at) => (at === index ? next : each)))}
              />
              <Field label="Model">
                <input
                  value={models[index]}
                  placeholder="the version's own"
                  onChange={(event) =>
                    setModels(models.map((each, at) => (at === index ? event.target.value : each)))
                  }
                />
              </Field>
            </fieldset>
          ))}
          <button
            type="button"
            className="secondary"
            onClick={() =>
              setTargets(targets.length === 1 ? [targets[0]!, `v:${action.version}`] : [targets[0]!])
            }
          >
            {targets.length === 1 ? 'Compare' : 'Single'}
          </button>
        </div>
        {variables.length > 0 ? (
          variables.map((name) => (
            <div className="field" key={name}>
              <label htmlFor={`variable-${name}`}>{name}</label>
              <textarea
                id={`variable-${name}`}
                rows={2}
                value={values[name] ?? ''}
                onChange={(event) => setValues({ ...values, [name]: event.target.value })}
              />
            </div>
          ))
        ) : (
          <div className="field">
            <label htmlFor="playground-message">Message</label>
            <textarea
              id="playground-message"
              rows={3}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
            />
          </div>
        )}
        <div>
          <button
            type="submit"
            disabled={!runGate.allowed || running || versions.isPending}
            title={runGate.reason}
          >
            {running ? 'Running…' : 'Run'}
          </button>
          {runGate.note}
        </div>
      </form>
      <div className={targets.length === 2 ? 'run-columns two' : 'run-columns'}>
        {targets.map((target, index) => (
          <section key={index === 0 ? 'left' : 'right'} aria-label={`Output of ${target.replace(':', ' ')}`}>
            <RunOutput state={runs[index]!.state} />
          </section>
        ))}
      </div>
    </div>
  );
}
