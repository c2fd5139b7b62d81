import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useId, useState } from 'react';
import { api, type ContextSource } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Field, FormError, submitWith } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { QueryView } from '../../../components/states';
import { keys } from '../../../queries/keys';

const unfinished = (source: ContextSource) =>
  source.indexing_status === 'PENDING' || source.indexing_status === 'PROCESSING';

/** A file as the upload endpoint takes it: a data URL (Base64). */
function dataUrlOf(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/**
 * Files dropped or picked are uploaded (→ a signed file URL) and added as Context Sources, which the
 * service loads, splits and indexes in the background; the list polls while any is unfinished.
 */
export function SourcesPanel({ contextGuid }: { contextGuid: string }) {
  const gate = useGate('write');
  const queries = useQueryClient();
  const fileInput = useId();
  const [dragging, setDragging] = useState(false);
  const [url, setUrl] = useState('');
  const sources = useQuery({
    queryKey: keys.contexts.sources(contextGuid),
    queryFn: () => api('GET /v1/contexts/{contextGuid}/context_sources', { path: { contextGuid } }),
    refetchInterval: (query) => (query.state.data?.some(unfinished) ? 1_000 : false),
  });
  // A source finished indexing (or indexed again): the Documents below changed, read them again.
  const indexedKey = sources.data
    ?.filter((source) => source.indexing_status === 'INDEXED')
    .map((source) => `${source.guid}@${source.indexed_at}`)
    .join(',');
  useEffect(() => {
    if (indexedKey) void queries.invalidateQueries({ queryKey: keys.contexts.documents(contextGuid) });
  }, [indexedKey, queries, contextGuid]);
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: keys.contexts.sources(contextGuid) });
    void queries.invalidateQueries({ queryKey: keys.contexts.documents(contextGuid) });
  };
  const addSource = (sourceUrl: string, name?: string) =>
    api('POST /v1/contexts/{contextGuid}/context_sources', {
      path: { contextGuid },
      body: {
        url: sourceUrl,
        ...(name && { name }),
      },
    });
  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      for (const file of files) {
        const { url: fileUrl } = await api('POST /v1/files/upload', {
          body: {
            data: await dataUrlOf(file),
          },
        });
        // The upload carries no file name; the source keeps it, and its Documents say where they came from.
        await addSource(fileUrl, file.name);
      }
    },
    onSettled: refresh,
  });
  const fromUrl = useMutation({
    mutationFn: () => addSource(url),
    onSuccess: () => setUrl(''),
    onSettled: refresh,
  });
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) upload.mutate(files);
  };
  const submitUrl = submitWith(fromUrl);

  return (
    <section aria-labelledby="sources-title">
      <h2 id="sources-title" className="section-title">
        Sources
      </h2>
      <section
        className={dragging ? 'drop-zone dragging' : 'drop-zone'}
        aria-label="Drop files to add them"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <p>
          Drop PDF, Word, HTML, Markdown or text files here, or{' '}
          <label htmlFor={fileInput} className="file-pick">
            choose files
          </label>
          <input
            id={fileInput}
            type="file"
            multiple
            className="visually-hidden"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = '';
              if (files.length > 0) upload.mutate(files);
            }}
          />
        </p>
        <p className="muted" aria-live="polite">
          {upload.isPending ? 'Uploading…' : ''}
        </p>
        {upload.isError && (
          <p className="field-error" role="alert">
            {upload.error.message}
          </p>
        )}
      </section>
      <form className="form-row" onSubmit={submitUrl} aria-label="Add a web page">
        <Field label="Web page or file URL" name="url" error={fromUrl.error}>
          <input
            type="url"
            value={url}
            required
            placeholder="https://…"
            onChange={(event) => setUrl(event.target.value)}
          />
        </Field>
        <button type="submit" disabled={!gate.allowed || fromUrl.isPending} title={gate.reason}>
          Add URL
        </button>
        {gate.note}
        <FormError error={fromUrl.error} fields={['url']} />
      </form>
      <QueryView
        query={sources}
        what="the sources"
        isEmpty={(data) => data.length === 0}
        empty={<p className="muted">No sources yet.</p>}
      >
        {(data) => (
          <DataTable
            label="Sources"
            short
            rows={data}
            columns={[
              { header: 'Source', cell: (source) => source.name },
              {
                header: 'Status',
                cell: (source) => (
                  <>
                    <span className={`status status-${source.indexing_status.toLowerCase()}`}>
                      {source.indexing_status}
                    </span>
                    {source.indexing_metadata?.error && (
                      <div className="field-error">{source.indexing_metadata.error}</div>
                    )}
                  </>
                ),
              },
              {
                header: 'Documents',
                numeric: true,
                cell: (source) => source.indexing_metadata?.documents ?? '—',
              },
              { header: 'Chunks', numeric: true, cell: (source) => source.indexing_metadata?.chunks ?? '—' },
              { header: 'Added', cell: (source) => new Date(source.created_at).toLocaleString() },
            ]}
          />
        )}
      </QueryView>
    </section>
  );
}
