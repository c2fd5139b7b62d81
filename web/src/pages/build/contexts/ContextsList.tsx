import { api } from '../../../api';
import { NamedListPage } from '../../../components/ListPage';
import { Empty } from '../../../components/states';
import { keys } from '../../../queries/keys';

/** The workspace's document libraries; a new one opens its page to add files. */
export default function ContextsList() {
  return (
    <NamedListPage
      id="contexts"
      title="Contexts"
      noun="Context"
      base="/contexts"
      listKey={keys.contexts.all}
      create={(body) => api('POST /v1/contexts', { body })}
      read={(query) => api('GET /v1/contexts', { query })}
      empty={
        <Empty title="No Contexts yet">
          <p>
            A Context is a library of documents an Action retrieves from. Create one above, then drop files on
            it.
          </p>
        </Empty>
      }
      columns={[
        { header: 'Description', cell: (context) => context.description || <span className="muted">—</span> },
        { header: 'Created', cell: (context) => new Date(context.createdAt).toLocaleString() },
      ]}
    />
  );
}
