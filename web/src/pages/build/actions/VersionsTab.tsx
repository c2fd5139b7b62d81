import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { type Action, type ActionVersion, ApiError, api } from '../../../api';
import { Field, FormError } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { DiffView } from './DiffView';
import { GateStatus } from './GateStatus';

function DeployForm({ action, versions }: { action: Action; versions: ActionVersion[] }) {
  const deployGate = useGate('deploy');
  const manage = useGate('manage');
  const queries = useQueryClient();
  const environments = useId();
  const [version, setVersion] = useState(String(action.version));
  const [environment, setEnvironment] = useState('staging');
  const deploy = useMutation({
    mutationFn: (target: { version: number; environment: string; force?: boolean }) =>
      api('POST /v1/actions/{guid}/deploy', { path: { guid: action.guid }, body: target }),
    onSuccess: (updated) => {
      queries.setQueryData(keys.actions.one(action.guid), updated);
      void queries.invalidateQueries({ queryKey: keys.gates.all });
      void queries.invalidateQueries({ queryKey: keys.actions.versions(action.guid) });
      void queries.invalidateQueries({ queryKey: keys.actions.all });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    deploy.mutate({ version: Number(version), environment });
  };
  const known = new Set(['production', 'staging', 'development', ...Object.keys(action.deployments)]);
  // A deploy the release gate refused: an admin may deploy past it (the audit log says so).
  const refusedByGate = deploy.error instanceof ApiError && deploy.error.code === 'gate_failed';
  return (
    <form className="form-row deploy" onSubmit={submit} aria-label="Deploy a version">
      <Field label="Version" name="version" error={deploy.error}>
        <select value={version} onChange={(event) => setVersion(event.target.value)}>
          {versions.map((each) => (
            <option key={each.version} value={each.version}>
              v{each.version}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Environment" name="environment" error={deploy.error}>
        <input
          list={environments}
          value={environment}
          required
          onChange={(event) => setEnvironment(event.target.value)}
        />
      </Field>
      <datalist id={environments}>
        {[...known].map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <button type="submit" disabled={!deployGate.allowed || deploy.isPending} title={deployGate.reason}>
        {deploy.isPending ? 'Deploying…' : 'Deploy'}
      </button>
      {deployGate.note}
      <span className="muted" aria-live="polite">
        {deploy.isSuccess &&
          `Version ${deploy.variables.version} now runs in ${deploy.variables.environment}${deploy.variables.force ? ' (forced past the release gate)' : ''}.`}
      </span>
      <FormError error={deploy.error} fields={['version', 'environment']} />
      {refusedByGate && manage.allowed && (
        <button
          type="button"
          className="danger"
          onClick={() => deploy.mutate({ version: Number(version), environment, force: true })}
        >
          Deploy anyway
        </button>
      )}
      <div className="deploy-gate">
        <GateStatus action={action} version={Number(version)} environment={environment} />
      </div>
    </form>
  );
}

/** Every saved version: where each is deployed, a side-by-side diff of any two, deploy or roll back. */
export function VersionsTab({ action }: { action: Action }) {
  const versions = useQuery({
    queryKey: keys.actions.versions(action.guid),
    queryFn: () =>
      api('GET /v1/actions/{guid}/versions', { path: { guid: action.guid }, query: { limit: 1000 } }),
  });
  const [left, setLeft] = useState(Math.max(1, action.version - 1));
  const [right, setRight] = useState(action.version);

  if (versions.isPending) return <Loading what="the versions" />;
  if (versions.isError) return <Failure what="the versions" error={versions.error} />;
  const list = versions.data.data;
  const byNumber = new Map(list.map((version) => [version.version, version]));
  const before = byNumber.get(left);
  const after = byNumber.get(right);
  return (
    <div className="versions">
      <DeployForm action={action} versions={list} />
      <div className="table-frame short">
        <table>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Model</th>
              <th scope="col">Deployed to</th>
              <th scope="col">Saved</th>
            </tr>
          </thead>
          <tbody>
            {list.map((version) => (
              <tr key={version.version}>
                <td>v{version.version}</td>
                <td>
                  <code>{version.model}</code>
                </td>
                <td>
                  {version.environments.length ? (
                    version.environments.join(', ')
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>
                  <time dateTime={version.created_at}>{new Date(version.created_at).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 className="section-title">Compare</h2>
      <div className="form-row">
        {(
          [
            ['Left version', left, setLeft],
            ['Right version', right, setRight],
          ] as const
        ).map(([label, value, set]) => (
          <Field key={label} label={label}>
            <select value={value} onChange={(event) => set(Number(event.target.value))}>
              {list.map((version) => (
                <option key={version.version} value={version.version}>
                  v{version.version}
                </option>
              ))}
            </select>
          </Field>
        ))}
      </div>
      {before && after ? (
        <DiffView
          before={before}
          after={after}
          labels={[`Version ${before.version}`, `Version ${after.version}`]}
        />
      ) : (
        <p className="muted">Pick two versions.</p>
      )}
    </div>
  );
}
