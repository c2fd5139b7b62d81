import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, api, type Snippet } from '../../../api';
import { Field, FormError, fieldError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { Empty, Failure, Loading } from '../../../components/states';
import { TemplateField } from '../../../components/TemplateEditor';
import { keys } from '../../../queries/keys';

/** The snippet's text, folder and description, saved with the version the edit started from. */
function SnippetForm({ snippet }: { snippet: Snippet }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const [edit, setEdit] = useState({
    base: snippet.version,
    content: snippet.content,
    folder: snippet.folder,
    description: snippet.description,
  });
  const save = useMutation({
    mutationFn: () =>
      api('PUT /v1/snippets/{guidOrName}', {
        path: { guidOrName: snippet.guid },
        body: {
          content: edit.content,
          folder: edit.folder,
          description: edit.description,
          base_version: edit.base,
        },
      }),
    onSuccess: (saved) => {
      queries.setQueryData(keys.snippets.one(snippet.guid), saved);
      void queries.invalidateQueries({ queryKey: keys.snippets.all });
      setEdit((current) => ({ ...current, base: saved.version }));
    },
  });
  const conflict = save.error instanceof ApiError && save.error.code === 'version_conflict';
  const contentError = fieldError(save.error, 'content');
  const submit = submitWith(save);
  const reload = async () => {
    const latest = await queries.fetchQuery({
      queryKey: keys.snippets.one(snippet.guid),
      queryFn: () => api('GET /v1/snippets/{guidOrName}', { path: { guidOrName: snippet.guid } }),
      staleTime: 0,
    });
    setEdit({
      base: latest.version,
      content: latest.content,
      folder: latest.folder,
      description: latest.description,
    });
    save.reset();
  };
  return (
    <form onSubmit={submit} aria-label="Edit the snippet" className="page-form">
      <TemplateField
        label="Text"
        value={edit.content}
        error={contentError}
        onChange={(content) => setEdit((current) => ({ ...current, content }))}
      />
      <div className="form-row">
        <Field
          label="Folder"
          name="folder"
          error={save.error}
          hint='"" for the root, or segments such as shared/tone'
        >
          <input value={edit.folder} onChange={(event) => setEdit({ ...edit, folder: event.target.value })} />
        </Field>
        <Field label="Description" name="description" error={save.error}>
          <input
            value={edit.description}
            onChange={(event) => setEdit({ ...edit, description: event.target.value })}
          />
        </Field>
      </div>
      <div className="toolbar">
        <span className="muted" aria-live="polite">
          {save.isSuccess
            ? `Saved; the latest version is ${snippet.version}`
            : `Editing version ${edit.base}`}
        </span>
        <button type="submit" disabled={!gate.allowed || save.isPending} title={gate.reason}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {gate.note}
      </div>
      {conflict ? (
        <div className="conflict" role="alert">
          <p>{save.error?.message}</p>
          <button type="button" className="secondary" onClick={() => void reload()}>
            Load the latest version (drops your changes)
          </button>
        </div>
      ) : (
        <FormError error={save.error} fields={['content', 'folder', 'description']} />
      )}
    </form>
  );
}

/** The Actions whose latest version includes the snippet; those behind pinned an older version. */
function Dependents({ snippet }: { snippet: Snippet }) {
  const dependents = useQuery({
    queryKey: keys.snippets.dependents(snippet.guid),
    queryFn: () => api('GET /v1/snippets/{guidOrName}/dependents', { path: { guidOrName: snippet.guid } }),
  });
  if (dependents.isPending) return <Loading what="the Actions that include it" />;
  if (dependents.isError) return <Failure what="the Actions that include it" error={dependents.error} />;
  if (dependents.data.length === 0)
    return (
      <Empty title="No Action includes it">
        <p>
          Include it in a template with <code>{`{% include '${snippet.name}' %}`}</code>.
        </p>
      </Empty>
    );
  return (
    <table aria-label="Actions that include it">
      <thead>
        <tr>
          <th scope="col">Action</th>
          <th scope="col">Its latest version</th>
          <th scope="col">Includes</th>
        </tr>
      </thead>
      <tbody>
        {dependents.data.map((dependent) => (
          <tr key={dependent.action}>
            <td>
              <Link to={`/actions/${dependent.action}`}>{dependent.slug}</Link>
            </td>
            <td>v{dependent.version}</td>
            <td>
              v{dependent.pinned_version}
              {dependent.pinned_version < snippet.version && (
                <span className="badge">behind: its next save takes v{snippet.version}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One snippet: its text (versioned), where it is filed, and the Actions that include it. */
export default function SnippetPage() {
  const { guid = '' } = useParams();
  const snippet = useQuery({
    queryKey: keys.snippets.one(guid),
    queryFn: () => api('GET /v1/snippets/{guidOrName}', { path: { guidOrName: guid } }),
  });
  if (snippet.isPending) return <Loading what="the snippet" />;
  if (snippet.isError) return <Failure what="the snippet" error={snippet.error} />;
  const current = snippet.data;
  return (
    <section aria-labelledby="snippet-title">
      <header className="page-header">
        <div>
          <h1 id="snippet-title">{current.name}</h1>
          <div className="muted subtitle">
            <code>{`{% include '${current.name}' %}`}</code> · latest v{current.version}
            {current.folder && ` · in ${current.folder}`}
          </div>
        </div>
      </header>
      <SnippetForm key={current.guid} snippet={current} />
      <h2 className="section-title">Included by</h2>
      <Dependents snippet={current} />
    </section>
  );
}
