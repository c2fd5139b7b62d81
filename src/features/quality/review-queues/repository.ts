import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Database, rowsOf, uuidArray } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { generations } from '../../runtime/generations/tables.js';
import { leaseChanges, leasesWithout } from './lease-columns.js';
import type { ItemStatus } from './schemas.js';
import { reviewItems, reviewQueues, reviews } from './tables.js';

export type QueueRow = typeof reviewQueues.$inferSelect;
export type ItemRow = typeof reviewItems.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;
export type ItemCounts = Record<ItemStatus, number>;

const liveQueue = (workspaceId: string) =>
  and(eq(reviewQueues.workspaceId, workspaceId), isNull(reviewQueues.deletedAt));

/** An item's status from its own row (docs/review.md#items): a live lease is one not yet ended. */
export const itemStatus = sql<ItemStatus>`CASE WHEN ${reviewItems.completedAt} IS NOT NULL THEN 'completed'
  WHEN ${reviewItems.reviewCount} > 0 OR ${reviewItems.leasedUntil} > now() THEN 'in_review' ELSE 'pending' END`;

export type ListedItem = ItemRow & { status: ItemStatus };

const listedColumns = {
  id: reviewItems.id,
  workspaceId: reviewItems.workspaceId,
  queueId: reviewItems.queueId,
  generationId: reviewItems.generationId,
  leases: reviewItems.leases,
  leaseHolders: reviewItems.leaseHolders,
  leasedUntil: reviewItems.leasedUntil,
  reviewedBy: reviewItems.reviewedBy,
  reviewCount: reviewItems.reviewCount,
  skippedBy: reviewItems.skippedBy,
  position: reviewItems.position,
  createdAt: reviewItems.createdAt,
  completedAt: reviewItems.completedAt,
  status: itemStatus,
};

export function createReviewRepository(database: Database) {
  return {
    async insertQueue(row: typeof reviewQueues.$inferInsert): Promise<QueueRow> {
      const [queue] = await database.insert(reviewQueues).values(row).returning();
      return queue!;
    },

    async findQueue(workspaceId: string, id: string): Promise<QueueRow | undefined> {
      const [row] = await database
        .select()
        .from(reviewQueues)
        .where(and(liveQueue(workspaceId), eq(reviewQueues.id, id)));
      return row;
    },

    /** `assignedTo`: only the queues that name this person (what a reviewer sees). */
    listQueues(workspaceId: string, skip: number, limit: number, assignedTo?: string) {
      const scope = and(
        liveQueue(workspaceId),
        assignedTo === undefined
          ? undefined
          : sql`${reviewQueues.assignees} @> ${JSON.stringify([assignedTo])}::jsonb`,
      );
      return tablePage(database, reviewQueues, scope, newestFirst(reviewQueues), skip, limit);
    },

    async updateQueue(
      workspaceId: string,
      id: string,
      changes: Partial<Omit<QueueRow, 'id' | 'workspaceId' | 'createdAt' | 'createdById'>>,
    ): Promise<QueueRow | undefined> {
      const [row] = await database
        .update(reviewQueues)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(liveQueue(workspaceId), eq(reviewQueues.id, id)))
        .returning();
      return row;
    },

    /** A changed `reviews_per_item`: items that now have enough reviews complete, those that no longer do reopen. */
    async recountCompletion(queueId: string, reviewsPerItem: number): Promise<void> {
      await database
        .update(reviewItems)
        .set({
          completedAt: sql`CASE WHEN ${reviewItems.reviewCount} >= ${reviewsPerItem}
            THEN coalesce(${reviewItems.completedAt}, now()) ELSE NULL END`,
        })
        .where(eq(reviewItems.queueId, queueId));
    },

    async counts(queueIds: string[]): Promise<Map<string, ItemCounts>> {
      const found = new Map<string, ItemCounts>(
        queueIds.map((id) => [id, { pending: 0, in_review: 0, completed: 0 }]),
      );
      if (queueIds.length === 0) return found;
      const rows = await database
        .select({ queueId: reviewItems.queueId, status: itemStatus, count: sql<number>`count(*)::int` })
        .from(reviewItems)
        .where(inArray(reviewItems.queueId, queueIds))
        .groupBy(reviewItems.queueId, itemStatus);
      for (const row of rows) found.get(row.queueId)![row.status] = row.count;
      return found;
    },

    /** The GUIDs among `ids` that are generations of the workspace. */
    async generationsOf(workspaceId: string, ids: string[]): Promise<Set<string>> {
      const rows = await database
        .select({ id: generations.id })
        .from(generations)
        .where(and(eq(generations.workspaceId, workspaceId), inArray(generations.id, ids)));
      return new Set(rows.map((row) => row.id));
    },

    /** Adds the generations not yet in the queue; answers how many were added. */
    async addItems(queue: QueueRow, generationIds: string[]): Promise<number> {
      if (generationIds.length === 0) return 0;
      const added =
        await database.execute(sql`INSERT INTO ${reviewItems} (id, workspace_id, queue_id, generation_id)
        SELECT gen_random_uuid(), ${queue.workspaceId}, ${queue.id}, generation
        FROM unnest(${uuidArray(generationIds)}) WITH ORDINALITY AS given (generation, place)
        ORDER BY place
        ON CONFLICT (queue_id, generation_id) DO NOTHING
        RETURNING id`);
      return rowsOf(added).length;
    },

    listItems(queueId: string, status: ItemStatus | undefined, skip: number, limit: number) {
      const scope = and(
        eq(reviewItems.queueId, queueId),
        status ? sql`${itemStatus} = ${status}` : undefined,
      );
      const rows = database
        .select(listedColumns)
        .from(reviewItems)
        .where(scope)
        .orderBy(asc(reviewItems.position))
        .offset(skip)
        .limit(limit);
      const total = database
        .select({ count: sql<number>`count(*)::int` })
        .from(reviewItems)
        .where(scope)
        .then(([row]) => row?.count ?? 0);
      return Promise.all([rows, total]).then(([page, count]) => ({
        rows: page as ListedItem[],
        total: count,
      }));
    },

    async findItem(queueId: string, itemId: string): Promise<ListedItem | undefined> {
      const [row] = await database
        .select(listedColumns)
        .from(reviewItems)
        .where(and(eq(reviewItems.queueId, queueId), eq(reviewItems.id, itemId)));
      return row as ListedItem | undefined;
    },

    /** The item locked for the rest of the transaction: a review and its count change together. */
    async lockItem(queueId: string, itemId: string): Promise<ListedItem | undefined> {
      const [row] = await database
        .select(listedColumns)
        .from(reviewItems)
        .where(and(eq(reviewItems.queueId, queueId), eq(reviewItems.id, itemId)))
        .for('update');
      return row as ListedItem | undefined;
    },

    /** Stores a review and counts it on its (locked) item; completes the item at `reviewsPerItem`. */
    async insertReview(row: typeof reviews.$inferInsert, reviewsPerItem: number): Promise<ReviewRow> {
      const [review] = await database.insert(reviews).values(row).returning();
      await database
        .update(reviewItems)
        .set({
          reviewCount: sql`${reviewItems.reviewCount} + 1`,
          reviewedBy: sql`array_append(${reviewItems.reviewedBy}, ${row.reviewerId}::text)`,
          ...leaseChanges(leasesWithout(row.reviewerId)),
          completedAt: sql`CASE WHEN ${reviewItems.reviewCount} + 1 >= ${reviewsPerItem} THEN now() ELSE NULL END`,
        })
        .where(eq(reviewItems.id, row.itemId));
      return review!;
    },

    async reviewsOf(itemId: string): Promise<ReviewRow[]> {
      return database
        .select()
        .from(reviews)
        .where(eq(reviews.itemId, itemId))
        .orderBy(asc(reviews.createdAt));
    },

    /** Reviews, live leases per reviewer of a queue. */
    async progress(queueId: string): Promise<{ user: string; reviews: number; leased: number }[]> {
      const reviewed = await database
        .select({ user: reviews.reviewerId, count: sql<number>`count(*)::int` })
        .from(reviews)
        .where(eq(reviews.queueId, queueId))
        .groupBy(reviews.reviewerId);
      const leased = rowsOf<{ user: string; count: number }>(
        await database.execute(sql`SELECT lease->>'reviewer' AS user, count(*)::int AS count
          FROM ${reviewItems}, jsonb_array_elements(${reviewItems.leases}) AS lease
          WHERE ${reviewItems.queueId} = ${queueId} AND ${reviewItems.completedAt} IS NULL
            AND ${reviewItems.leasedUntil} > now() AND (lease->>'expires_at')::timestamptz > now()
          GROUP BY 1`),
      );
      const byUser = new Map<string, { user: string; reviews: number; leased: number }>();
      const of = (user: string) => {
        if (!byUser.has(user)) byUser.set(user, { user, reviews: 0, leased: 0 });
        return byUser.get(user)!;
      };
      for (const row of reviewed) of(row.user).reviews = row.count;
      for (const row of leased) of(row.user).leased = row.count;
      return [...byUser.values()];
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
