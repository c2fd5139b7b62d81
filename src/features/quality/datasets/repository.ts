import { and, asc, eq, gt, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage, totalOf } from '../../../platform/database/pages.js';
import { datasetItems, datasets } from './tables.js';

export type DatasetRow = typeof datasets.$inferSelect;
export type DatasetItemRow = typeof datasetItems.$inferSelect;
export type NewItemRow = typeof datasetItems.$inferInsert;

const live = (workspaceId: string) => and(eq(datasets.workspaceId, workspaceId), isNull(datasets.deletedAt));

/** The rows of a dataset's items as they stood in `version`. */
function inVersion(datasetId: string, version: number): SQL | undefined {
  return and(
    eq(datasetItems.datasetId, datasetId),
    lte(datasetItems.addedIn, version),
    or(isNull(datasetItems.removedIn), gt(datasetItems.removedIn, version)),
  );
}

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in a statement, an item row has 8. */
const insertBatch = 1_000;

export function createDatasetRepository(database: Database) {
  return {
    async insert(row: typeof datasets.$inferInsert): Promise<DatasetRow> {
      const [dataset] = await database.insert(datasets).values(row).returning();
      return dataset!;
    },

    async find(workspaceId: string, id: string): Promise<DatasetRow | undefined> {
      const [dataset] = await database
        .select()
        .from(datasets)
        .where(and(live(workspaceId), eq(datasets.id, id)));
      return dataset;
    },

    /** The dataset, its row locked until the transaction ends: changes of its items queue here. */
    async lock(workspaceId: string, id: string): Promise<DatasetRow | undefined> {
      const [dataset] = await database
        .select()
        .from(datasets)
        .where(and(live(workspaceId), eq(datasets.id, id)))
        .for('update');
      return dataset;
    },

    async list(workspaceId: string, skip: number, limit: number) {
      return tablePage(database, datasets, live(workspaceId), newestFirst(datasets), skip, limit);
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<
        Pick<DatasetRow, 'name' | 'description' | 'version' | 'itemCount' | 'itemsAdded' | 'deletedAt'>
      >,
    ): Promise<DatasetRow | undefined> {
      const [dataset] = await database
        .update(datasets)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(live(workspaceId), eq(datasets.id, id)))
        .returning();
      return dataset;
    },

    /** A page of the items of `version`, in the order they were added. */
    async items(datasetId: string, version: number, skip: number, limit: number): Promise<DatasetItemRow[]> {
      return database
        .select()
        .from(datasetItems)
        .where(inVersion(datasetId, version))
        .orderBy(asc(datasetItems.position))
        .offset(skip)
        .limit(limit);
    },

    async countItems(datasetId: string, version: number): Promise<number> {
      return totalOf(database, datasetItems, inVersion(datasetId, version));
    },

    /** The current row of an item, if the dataset's newest version holds it. */
    async currentItem(datasetId: string, itemId: string): Promise<DatasetItemRow | undefined> {
      const [row] = await database
        .select()
        .from(datasetItems)
        .where(
          and(
            eq(datasetItems.datasetId, datasetId),
            eq(datasetItems.itemId, itemId),
            isNull(datasetItems.removedIn),
          ),
        );
      return row;
    },

    async insertItems(rows: NewItemRow[]): Promise<void> {
      for (let start = 0; start < rows.length; start += insertBatch)
        await database.insert(datasetItems).values(rows.slice(start, start + insertBatch));
    },

    /** Ends an item's current row at `version` (removed, or replaced by an edit). */
    async endItem(rowId: string, version: number): Promise<void> {
      await database
        .update(datasetItems)
        .set({ removedIn: sql`${version}` })
        .where(eq(datasetItems.id, rowId));
    },
  };
}

export type DatasetRepository = ReturnType<typeof createDatasetRepository>;
