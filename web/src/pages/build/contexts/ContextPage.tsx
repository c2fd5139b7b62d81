import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Failure, Loading, QueryView } from '../../../components/states';
import { usePagedList } from '../../../paged-list';
import { keys } from '../../../queries/keys';
import { SearchTester } from './SearchTester';
import { SourcesPanel } from './SourcesPanel';

const pageSize = 20;

function Documents({ contextGuid }: { contextGuid: string }) {
  const { query: documents, pager } = usePagedList(
    keys.contexts.documents(contextGuid),
    (query) => api('GET /v1/contexts/{contextGuid}/documents', { path: { contextGuid }, query }),
    pageSize,
  );
  return (
    <section aria-labelledby="documents-title">
      <h2 id="documents-title" className="section-title">
        Documents
      </h2>
      <QueryView
        query={documents}
        what="the documents"
        isEmpty={(data) => data.total_count === 0}
        empty={<p className="muted">No documents yet: add a source above.</p>}
      >
        {(data) => (
          <>
            <DataTable
              label="Documents"
              short
              rows={data.data}
              columns={[
                {
                  header: 'Content',
                  cell: (document) => <div className="document-text">{document.content}</div>,
                },
                {
                  header: 'Metadata',
                  cell: (document) => (
                    <code className="muted">{JSON.stringify(document.metadata ?? {})}</code>
                  ),
                },
              ]}
            />
            {pager}
          </>
        )}
      </QueryView>
    </section>
  );
}

/** One Context: its sources with live indexing status, its documents, and a search tester. */
export default function ContextPage() {
  const { guid = '' } = useParams();
  const context = useQuery({
    queryKey: keys.contexts.one(guid),
    queryFn: () => api('GET /v1/contexts/{guid}', { path: { guid } }),
  });
  if (context.isPending) return <Loading what="the Context" />;
  if (context.isError) return <Failure what="the Context" error={context.error} />;
  return (
    <section aria-labelledby="context-title">
      <header className="page-header">
        <div>
          <h1 id="context-title">{context.data.name}</h1>
          {context.data.description && <p className="muted subtitle">{context.data.description}</p>}
        </div>
      </header>
      <SourcesPanel contextGuid={guid} />
      <SearchTester contextGuid={guid} />
      <Documents contextGuid={guid} />
    </section>
  );
}
