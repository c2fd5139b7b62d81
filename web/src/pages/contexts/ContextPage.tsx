import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, type Context, type ContextDocument, type ListEnvelope } from '../../api';
import { Pager } from '../../components/Pager';
import { Failure, Loading } from '../../components/states';
import { SearchTester } from './SearchTester';
import { SourcesPanel } from './SourcesPanel';

const pageSize = 20;

function Documents({ contextGuid }: { contextGuid: string }) {
  const [skip, setSkip] = useState(0);
  const documents = useQuery({
    queryKey: ['documents', contextGuid, skip],
    queryFn: () =>
      api<ListEnvelope<ContextDocument>>(
        'GET',
        `/v1/contexts/${contextGuid}/documents?skip=${skip}&limit=${pageSize}`,
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="documents-title">
      <h2 id="documents-title" className="section-title">
        Documents
      </h2>
      {documents.isPending ? (
        <Loading what="the documents" />
      ) : documents.isError ? (
        <Failure what="the documents" error={documents.error} />
      ) : documents.data.total_count === 0 ? (
        <p className="muted">No documents yet: add a source above.</p>
      ) : (
        <>
          <div className="table-frame short">
            <table aria-label="Documents">
              <thead>
                <tr>
                  <th scope="col">Content</th>
                  <th scope="col">Metadata</th>
                </tr>
              </thead>
              <tbody>
                {documents.data.data.map((document) => (
                  <tr key={document.guid}>
                    <td className="document-text">{document.content}</td>
                    <td>
                      <code className="muted">{JSON.stringify(document.metadata ?? {})}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            skip={skip}
            pageSize={pageSize}
            total={documents.data.total_count}
            hasNext={documents.data.has_next_page}
            onSkip={setSkip}
          />
        </>
      )}
    </section>
  );
}

/** One Context: its sources with live indexing status, its documents, and a search tester. */
export default function ContextPage() {
  const { guid = '' } = useParams();
  const context = useQuery({
    queryKey: ['context', guid],
    queryFn: () => api<Context>('GET', `/v1/contexts/${guid}`),
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
