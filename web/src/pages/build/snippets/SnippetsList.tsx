import { api } from '../../../api';
import { NamedListPage } from '../../../components/ListPage';
import { Empty } from '../../../components/states';
import { keys } from '../../../queries/keys';

/** The workspace's snippets: template fragments that Actions include by name. */
export default function SnippetsList() {
  return (
    <NamedListPage
      id="snippets"
      title="Snippets"
      noun="snippet"
      base="/snippets"
      listKey={keys.snippets.all}
      create={(body) => api('POST /v1/snippets', { body: { ...body, content: '' } })}
      read={(query) => api('GET /v1/snippets', { query })}
      empty={
        <Empty title="No snippets yet">
          <p>
            A snippet is text that many templates share — a tone, a safety preamble. Create one above, then
            include it in a template with <code>{"{% include 'name' %}"}</code>.
          </p>
        </Empty>
      }
      columns={[
        { header: 'Folder', cell: (snippet) => snippet.folder || '—' },
        { header: 'Version', numeric: true, cell: (snippet) => `v${snippet.version}` },
        { header: 'Updated', cell: (snippet) => new Date(snippet.updated_at).toLocaleString() },
      ]}
    />
  );
}
