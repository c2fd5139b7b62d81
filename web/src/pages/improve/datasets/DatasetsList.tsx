import { api } from '../../../api';
import { NamedListPage } from '../../../components/ListPage';
import { Empty } from '../../../components/states';
import { keys } from '../../../queries/keys';

/** The workspace's datasets: the inputs (and expected outputs) that evaluations run an Action over. */
export default function DatasetsList() {
  return (
    <NamedListPage
      id="datasets"
      title="Datasets"
      noun="dataset"
      base="/datasets"
      listKey={keys.datasets.all}
      create={(body) => api('POST /v1/datasets', { body })}
      read={(query) => api('GET /v1/datasets', { query })}
      empty={
        <Empty title="No datasets yet">
          <p>
            A dataset holds inputs for an Action and the outputs you expect. Create one above, then add items
            or import a JSON Lines or CSV file.
          </p>
        </Empty>
      }
      columns={[
        { header: 'Items', numeric: true, cell: (dataset) => dataset.item_count },
        { header: 'Version', numeric: true, cell: (dataset) => `v${dataset.version}` },
        { header: 'Updated', cell: (dataset) => new Date(dataset.updated_at).toLocaleString() },
      ]}
    />
  );
}
