import { api } from '../../api';
import { ListPage, nameColumn } from '../../components/ListPage';
import { NewNamedForm } from '../../components/NewNamedForm';
import { Empty } from '../../components/states';
import { keys } from '../../queries/keys';

/** The workspace's snippets: template fragments that Actions include by name. */
export default function SnippetsList() {
  return (
    <ListPage
      id="snippets"
      title="Snippets"
      form={
        <NewNamedForm
          label="New snippet"
          save={(body) => api('POST /v1/snippets', { body: { ...body, content: '' } })}
          listKey={keys.snippets.all}
          pageBase="/snippets"
          create="Create snippet"
        />
      }
      listKey={keys.snippets.all}
      read={(query) => api('GET /v1/snippets', { query })}
      what="the snippets"
      empty={
        <Empty title="No snippets yet">
          <p>
            A snippet is text that many templates share — a tone, a safety preamble. Create one above, then
            include it in a template with <code>{"{% include 'name' %}"}</code>.
          </p>
        </Empty>
      }
      rowKey={(snippet) => snippet.guid}
      columns={[
        nameColumn('/snippets'),
        { header: 'Folder', cell: (snippet) => snippet.folder || '—' },
        { header: 'Version', numeric: true, cell: (snippet) => `v${snippet.version}` },
        { header: 'Updated', cell: (snippet) => new Date(snippet.updated_at).toLocaleString() },
      ]}
    />
  );
}
