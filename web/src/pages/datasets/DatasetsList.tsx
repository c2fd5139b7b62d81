import type { Dataset } from '../../api';
import { ListPage, nameColumn } from '../../components/ListPage';
import { NewNamedForm } from '../../components/NewNamedForm';
import { Empty } from '../../components/states';
import { keys } from '../../queries/keys';

/** The workspace's datasets: the inputs (and expected outputs) that evaluations run an Action over. */
export default function DatasetsList() {
  return (
    <ListPage<Dataset>
      id="datasets"
      title="Datasets"
      form={
        <NewNamedForm
          label="New dataset"
          path="/v1/datasets"
          listKey={keys.datasets.all}
          pageBase="/datasets"
          create="Create dataset"
        />
      }
      listKey={keys.datasets.all}
      path="/v1/datasets"
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
