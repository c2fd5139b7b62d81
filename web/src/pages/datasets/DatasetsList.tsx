import { api } from '../../api';
import { ListPage, nameColumn } from '../../components/ListPage';
import { NewNamedForm } from '../../components/NewNamedForm';
import { Empty } from '../../components/states';
import { keys } from '../../queries/keys';

/** The workspace's datasets: the inputs (and expected outputs) that evaluations run an Action over. */
export default function DatasetsList() {
  return (
    <ListPage
      id="datasets"
      title="Datasets"
      form={
        <NewNamedForm
          label="New dataset"
          save={(body) => api('POST /v1/datasets', { body })}
          listKey={keys.datasets.all}
          pageBase="/datasets"
          create="Create dataset"
        />
      }
      listKey={keys.datasets.all}
      read={(query) => api('GET /v1/datasets', { query })}
      what="the datasets"
      empty={
        <Empty title="No datasets yet">
          <p>
            A dataset holds inputs for an Action and the outputs you expect. Create one above, then add items
            or import a JSON Lines or CSV file.
          </p>
        </Empty>
      }
      rowKey={(dataset) => dataset.guid}
      columns={[
        nameColumn('/datasets'),
        { header: 'Items', numeric: true, cell: (dataset) => dataset.item_count },
        { header: 'Version', numeric: true, cell: (dataset) => `v${dataset.version}` },
        { header: 'Updated', cell: (dataset) => new Date(dataset.updated_at).toLocaleString() },
      ]}
    />
  );
}
