import { api } from '../../api';
import { ListPage, nameColumn } from '../../components/ListPage';
import { NewNamedForm } from '../../components/NewNamedForm';
import { Empty } from '../../components/states';
import { keys } from '../../queries/keys';

/** The workspace's document libraries; a new one opens its page to add files. */
export default function ContextsList() {
  return (
    <ListPage
      id="contexts"
      title="Contexts"
      form={
        <NewNamedForm
          label="New Context"
          save={(body) => api('POST /v1/contexts', { body })}
          listKey={keys.contexts.all}
          pageBase="/contexts"
          create="Create Context"
        />
      }
      listKey={keys.contexts.all}
      read={(query) => api('GET /v1/contexts', { query })}
      what="the Contexts"
      empty={
        <Empty title="No Contexts yet">
          <p>
            A Context is a library of documents an Action retrieves from. Create one above, then drop files on
            it.
          </p>
        </Empty>
      }
      rowKey={(context) => context.guid}
      columns={[
        nameColumn('/contexts'),
        { header: 'Description', cell: (context) => context.description || <span className="muted">—</span> },
        { header: 'Created', cell: (context) => new Date(context.createdAt).toLocaleString() },
      ]}
    />
  );
}
