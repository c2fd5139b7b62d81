import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type AuditRecord, api } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { QueryView } from '../../components/states';
import { keys } from '../../queries/keys';
import { useMe } from '../../queries/me';

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * What a record's changes say (secrets are already `[redacted]` by the service): a version save as
 * each changed field before and after; anything else as its JSON on one line.
 */
function Changes({ record }: { record: AuditRecord }) {
  const changes = record.changes;
  const diff = changes && !Array.isArray(changes) ? changes.version_diff : undefined;
  if (diff)
    return (
      <details>
        <summary>
          v{diff.from_version} → v{diff.to_version}: {Object.keys(diff.fields).join(', ') || 'no field'}
        </summary>
        <dl className="version-diff">
          {Object.entries(diff.fields).map(([field, { before, after }]) => (
            <div key={field}>
              <dt>{field}</dt>
              <dd>
                <del>{shown(before)}</del> <ins>{shown(after)}</ins>
              </dd>
            </div>
          ))}
        </dl>
      </details>
    );
  if (changes === null || changes === undefined) return null;
  const text = JSON.stringify(changes);
  return <code className="changes">{text.length > 160 ? `${text.slice(0, 160)}…` : text}</code>;
}

/**
 * The audit log (admins and owners): who changed what, newest first, filtered by person or key,
 * resource, action and date; the filtered set downloads as JSON Lines.
 */
export function AuditLog() {
  const me = useMe();
  const allowed = me.data?.rights.includes('audit') ?? false;
  const [filters, setFilters] = useState({ actor: '', resource: '', action: '', since: '', until: '' });
  const query = {
    actor: filters.actor || undefined,
    resource: filters.resource || undefined,
    action: filters.action || undefined,
    since: filters.since ? new Date(filters.since).toISOString() : undefined,
    until: filters.until ? new Date(`${filters.until}T23:59:59`).toISOString() : undefined,
  };
  const records = useQuery({
    queryKey: keys.auditLog.filtered(JSON.stringify(query)),
    queryFn: () => api('GET /v1/audit_log', { query: { ...query, limit: 100 } }),
    enabled: allowed,
  });
  const set = (name: keyof typeof filters) => (event: { target: { value: string } }) =>
    setFilters({ ...filters, [name]: event.target.value });
  if (me.data && !allowed)
    return (
      <section aria-labelledby="audit-title">
        <h2 id="audit-title" className="section-title">
          Audit log
        </h2>
        <p className="muted">Only an admin or an owner reads the audit log.</p>
      </section>
    );
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title" className="section-title">
        Audit log
      </h2>
      <form className="form-row" aria-label="Audit log filters" onSubmit={(event) => event.preventDefault()}>
        <Field label="Person or key (GUID)" name="actor" error={records.error}>
          <input value={filters.actor} onChange={set('actor')} />
        </Field>
        <Field label="Resource (GUID)" name="resource" error={records.error}>
          <input value={filters.resource} onChange={set('resource')} />
        </Field>
        <Field label="Action starts with" name="action" error={records.error}>
          <input value={filters.action} placeholder="PUT /v1/actions" onChange={set('action')} />
        </Field>
        <Field label="From" name="since" error={records.error}>
          <input type="date" value={filters.since} onChange={set('since')} />
        </Field>
        <Field label="To" name="until" error={records.error}>
          <input type="date" value={filters.until} onChange={set('until')} />
        </Field>
        <a className="button secondary" href={`/v1/audit_log/export?${query}`} download>
          Export JSONL
        </a>
      </form>
      <QueryView query={records} what="the audit log">
        {(data) => (
          <DataTable
            label="Audit records"
            short
            rows={data.data}
            columns={[
              { header: 'When', cell: (record) => new Date(record.at).toLocaleString() },
              { header: 'Who', cell: (record) => `${record.actor.label} (${record.actor.type})` },
              { header: 'Action', cell: (record) => <code>{record.action}</code> },
              {
                header: 'Resource',
                cell: (record) =>
                  record.resource ? `${record.resource.type} ${record.resource.guid ?? ''}` : '',
              },
              { header: 'Status', cell: (record) => record.status },
              { header: 'Changes', cell: (record) => <Changes record={record} /> },
            ]}
          />
        )}
      </QueryView>
    </section>
  );
}
