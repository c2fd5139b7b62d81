import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { type GateReference, NotFoundError, UsedByGateError } from '../../../errors.js';
import type { DatasetItemRow, DatasetRepository, DatasetRow, NewItemRow } from './repository.js';
import type { DatasetChange, ItemChange, NewDataset, NewItem } from './schemas.js';

/**
 * What stored generations give items: each one's input, and its output as the expected one, by
 * GUID (the workspace's own only).
 */
export type GenerationSource = (
  workspaceId: string,
  ids: string[],
) => Promise<Map<string, { input: unknown; output: string }>>;

export type ItemsChanged = { added: number; version: number };

export interface DatasetService {
  create(workspaceId: string, creatorId: string, fields: NewDataset): Promise<DatasetRow>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<DatasetRow>>;
  require(workspaceId: string, id: string): Promise<DatasetRow>;
  /** Renames or describes it: no new version. */
  change(workspaceId: string, id: string, fields: DatasetChange): Promise<DatasetRow>;
  remove(workspaceId: string, id: string): Promise<void>;
  /** Adds items as one new version. */
  addItems(workspaceId: string, id: string, items: NewItem[]): Promise<ItemsChanged>;
  /** Adds one item as a new version; answers the version and the item's GUID (review queues' additions). */
  addItem(workspaceId: string, id: string, item: NewItem): Promise<{ version: number; item: string }>;
  /** Adds the generations' inputs, with their outputs as expected, as one new version. */
  addFromData(workspaceId: string, id: string, dataIds: string[]): Promise<ItemsChanged>;
  /** A page of the items of `version` (the newest when absent). */
  items(
    workspaceId: string,
    id: string,
    version: number | undefined,
    pagination: Pagination,
  ): Promise<Page<DatasetItemRow>>;
  changeItem(
    workspaceId: string,
    id: string,
    itemId: string,
    change: ItemChange,
  ): Promise<{ version: number; item: DatasetItemRow }>;
  removeItem(workspaceId: string, id: string, itemId: string): Promise<{ version: number }>;
  /** Every item of `version`, a batch at a time (the export); checked before the first batch. */
  allItems(
    workspaceId: string,
    id: string,
    version: number | undefined,
  ): Promise<AsyncGenerator<DatasetItemRow>>;
}

const exportBatch = 1_000;

export function createDatasetService(dependencies: {
  repository: DatasetRepository;
  generations: GenerationSource;
  /** Runs work in one transaction (joining the request's, when it has one). */
  inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
  /** The release gates that read a dataset (the release-gates feature): such a dataset is not removed. */
  gatesUsing?: (workspaceId: string, id: string) => Promise<GateReference[]>;
}): DatasetService {
  const { repository, generations, inTransaction, gatesUsing = async () => [] } = dependencies;

  async function require(workspaceId: string, id: string): Promise<DatasetRow> {
    const dataset = await repository.find(workspaceId, id);
    if (!dataset) throw new NotFoundError('Dataset not found');
    return dataset;
  }

  async function versionOf(workspaceId: string, id: string, version: number | undefined) {
    const dataset = await require(workspaceId, id);
    if (version !== undefined && version > dataset.version)
      throw new NotFoundError(`Dataset version ${version} not found: the newest is ${dataset.version}`);
    return { dataset, version: version ?? dataset.version };
  }

  /**
   * Makes the dataset's next version: the row is locked, so concurrent changes take turns and each
   * gets its own version. `work` stores the change and says how the item count moved.
   */
  function nextVersion<T>(
    workspaceId: string,
    id: string,
    work: (
      dataset: DatasetRow,
      version: number,
    ) => Promise<{ result: T; countChange: number; added: number }>,
  ): Promise<T> {
    return inTransaction(async () => {
      const dataset = await repository.lock(workspaceId, id);
      if (!dataset) throw new NotFoundError('Dataset not found');
      const version = dataset.version + 1;
      const { result, countChange, added } = await work(dataset, version);
      await repository.update(workspaceId, id, {
        version,
        itemCount: dataset.itemCount + countChange,
        itemsAdded: dataset.itemsAdded + added,
      });
      return result;
    });
  }

  function addAll(
    workspaceId: string,
    id: string,
    items: NewItem[],
  ): Promise<ItemsChanged & { itemIds: string[] }> {
    return nextVersion(workspaceId, id, async (dataset, version) => {
      const rows: NewItemRow[] = items.map((item, index) => ({
        id: randomUUID(),
        datasetId: dataset.id,
        itemId: randomUUID(),
        position: dataset.itemsAdded + index + 1,
        input: item.input,
        expectedOutput: item.expected_output ?? null,
        metadata: item.metadata ?? {},
        addedIn: version,
      }));
      await repository.insertItems(rows);
      const result = { added: rows.length, version, itemIds: rows.map((row) => row.itemId!) };
      return { result, countChange: rows.length, added: rows.length };
    });
  }

  return {
    async create(workspaceId, creatorId, fields) {
      return repository.insert({
        id: randomUUID(),
        workspaceId,
        name: fields.name,
        description: fields.description ?? '',
        createdById: creatorId,
      });
    },

    async list(workspaceId, { skip, limit }) {
      return repository.list(workspaceId, skip, limit);
    },

    require,

    async change(workspaceId, id, fields) {
      const dataset = await repository.update(workspaceId, id, {
        ...(fields.name !== undefined && { name: fields.name }),
        ...(fields.description !== undefined && { description: fields.description }),
      });
      if (!dataset) throw new NotFoundError('Dataset not found');
      return dataset;
    },

    async remove(workspaceId, id) {
      await require(workspaceId, id);
      const gates = await gatesUsing(workspaceId, id);
      if (gates.length > 0) throw new UsedByGateError('dataset', gates);
      if (!(await repository.update(workspaceId, id, { deletedAt: new Date() })))
        throw new NotFoundError('Dataset not found');
    },

    async addItems(workspaceId, id, items) {
      const { added, version } = await addAll(workspaceId, id, items);
      return { added, version };
    },

    async addItem(workspaceId, id, item) {
      const { version, itemIds } = await addAll(workspaceId, id, [item]);
      return { version, item: itemIds[0]! };
    },

    async addFromData(workspaceId, id, dataIds) {
      await require(workspaceId, id);
      const found = await generations(workspaceId, dataIds);
      const items = dataIds.map((dataId): NewItem => {
        const generation = found.get(dataId);
        if (!generation) throw new NotFoundError(`Generation ${dataId} not found`);
        return { input: generation.input as NewItem['input'], expected_output: generation.output };
      });
      const { added, version } = await addAll(workspaceId, id, items);
      return { added, version };
    },

    async items(workspaceId, id, requested, { skip, limit }) {
      const { dataset, version } = await versionOf(workspaceId, id, requested);
      const [rows, total] = await Promise.all([
        repository.items(dataset.id, version, skip, limit),
        repository.countItems(dataset.id, version),
      ]);
      return { rows, total };
    },

    async changeItem(workspaceId, id, itemId, change) {
      return nextVersion(workspaceId, id, async (dataset, version) => {
        const current = await repository.currentItem(dataset.id, itemId);
        if (!current) throw new NotFoundError('Item not found in the dataset’s newest version');
        await repository.endItem(current.id, version);
        const item: DatasetItemRow = {
          ...current,
          id: randomUUID(),
          input: change.input ?? current.input,
          expectedOutput:
            change.expected_output !== undefined ? (change.expected_output ?? null) : current.expectedOutput,
          metadata: change.metadata !== undefined ? (change.metadata ?? {}) : current.metadata,
          addedIn: version,
          removedIn: null,
        };
        await repository.insertItems([item]);
        return { result: { version, item }, countChange: 0, added: 0 };
      });
    },

    async removeItem(workspaceId, id, itemId) {
      return nextVersion(workspaceId, id, async (dataset, version) => {
        const current = await repository.currentItem(dataset.id, itemId);
        if (!current) throw new NotFoundError('Item not found in the dataset’s newest version');
        await repository.endItem(current.id, version);
        return { result: { version }, countChange: -1, added: 0 };
      });
    },

    async allItems(workspaceId, id, requested) {
      const { dataset, version } = await versionOf(workspaceId, id, requested);
      return (async function* () {
        for (let skip = 0; ; skip += exportBatch) {
          const rows = await repository.items(dataset.id, version, skip, exportBatch);
          yield* rows;
          if (rows.length < exportBatch) return;
        }
      })();
    },
  };
}
