import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Database, rowsOf, uuidArray } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { generationScores, generations } from '../../runtime/generations/tables.js';
import type { ItemStatus } from './schemas.js';
import { reviewItems, reviewQueues, reviews } from './tables.js';

export type QueueRow = typeof reviewQueues.$inferSelect;
export type ItemRow = typeof reviewItems.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;
export type ItemCounts = Record<ItemStatus, number>;

const liveQueue = (workspaceId: string) =>
  and(eq(reviewQueues.workspaceId, workspaceId), isNull(reviewQueues.deletedAt));

/** A lease counts while its time runs: the database's clock decides, the same for every node. */
const liveLeaseCount = (
  others: string | undefined,
) => sql`(SELECT count(*) FROM jsonb_array_elements(${reviewItems.leases}) AS lease
  WHERE (lease->>'expires_at')::timestamptz > now()${others === undefined ? sql`` : sql` AND lease->>'reviewer' <> ${others}`})::int`;

/** An item's status from its own row (docs/review.md#items). */
export const itemStatus = sql<ItemStatus>`CASE WHEN ${reviewItems.completedAt} IS NOT NULL THEN 'completed'
  WHEN ${reviewItems.reviewCount} > 0 OR ${liveLeaseCount(undefined)} > 0 THEN 'in_review' ELSE 'pending' END`;

/** The leases of a row without `reviewer`'s and without lapsed ones. */
const leasesWithout = (reviewer: string) => sql`(SELECT coalesce(jsonb_agg(lease), '[]'::jsonb)
  FROM jsonb_array_elements(${reviewItems.leases}) AS lease
  WHERE (lease->>'expires_at')::timestamptz > now() AND lease->>'reviewer' <> ${reviewer})`;

const leaseOf = (
  reviewer: string,
  seconds: number,
) => sql`jsonb_build_array(jsonb_build_object('reviewer', ${reviewer}::text,
  'expires_at', to_char((now() + make_interval(secs => ${seconds})) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))`;

export type ListedItem = ItemRow & { status: ItemStatus };
export type LeasedItem = ListedItem & { leaseExpiresAt: string };

const listedColumns = {
  id: reviewItems.id,
  workspaceId: reviewItems.workspaceId,
  queueId: reviewItems.queueId,
  generationId: reviewItems.generationId,
  leases: reviewItems.leases,
  reviewedBy: reviewItems.reviewedBy,
  reviewCount: reviewItems.reviewCount,
  skippedBy: reviewItems.skippedBy,
  position: reviewItems.position,
  createdAt: reviewItems.createdAt,
  completedAt: reviewItems.completedAt,
  status: itemStatus,
};

type RawItem = {
  id: string;
  generation_id: string;
  review_count: number;
  created_at: string | Date;
  completed_at: string | Date | null;
  status: ItemStatus;
  lease_expires_at: string;
};

function itemOf(row: RawItem, queue: QueueRow): LeasedItem {
  return {
    id: row.id,
    workspaceId: queue.workspaceId,
    queueId: queue.id,
    generationId: row.generation_id,
    leases: [],
    reviewedBy: [],
    skippedBy: [],
    position: 0,
    reviewCount: row.review_count,
    createdAt: new Date(row.created_at),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at),
    status: row.status,
    leaseExpiresAt: new Date(row.lease_expires_at).toISOString(),
  };
}

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

    /** The item the reviewer already holds a live lease of in this queue, its lease renewed. */
    async renewLease(queue: QueueRow, reviewer: string): Promise<LeasedItem | undefined> {
      const renewed = await database.execute(sql`UPDATE ${reviewItems}
        SET leases = ${leasesWithout(reviewer)} || ${leaseOf(reviewer, queue.leaseSeconds)}
        WHERE id = (SELECT held.id FROM ${reviewItems} AS held
          WHERE held.queue_id = ${queue.id} AND held.completed_at IS NULL
            AND EXISTS (SELECT 1 FROM jsonb_array_elements(held.leases) AS lease
              WHERE lease->>'reviewer' = ${reviewer} AND (lease->>'expires_at')::timestamptz > now())
          ORDER BY held.position LIMIT 1 FOR UPDATE)
        RETURNING id, generation_id, review_count, created_at, completed_at, 'in_review' AS status,
          leases->-1->>'expires_at' AS lease_expires_at`);
      const [row] = rowsOf<RawItem>(renewed);
      return row && itemOf(row, queue);
    },

    /**
     * Leases the queue's first item the reviewer may take, in one statement: one not completed, not
     * reviewed by them, whose reviews and others' live leases are fewer than the queue needs. The
     * candidate is locked (`FOR UPDATE SKIP LOCKED`), and every condition reads that row alone, so a
     * lease another node committed meanwhile is seen when the row is checked again: no item is ever
     * leased to more people than it still needs. Items the reviewer skipped come after the rest.
     */
    async takeLease(queue: QueueRow, reviewer: string): Promise<LeasedItem | undefined> {
      const taken = await database.execute(sql`UPDATE ${reviewItems}
        SET leases = ${leasesWithout(reviewer)} || ${leaseOf(reviewer, queue.leaseSeconds)}
        WHERE id = (SELECT candidate.id FROM ${reviewItems} AS candidate
          WHERE candidate.queue_id = ${queue.id} AND candidate.completed_at IS NULL
            AND NOT (${reviewer}::text = ANY (candidate.reviewed_by))
            AND candidate.review_count + (SELECT count(*) FROM jsonb_array_elements(candidate.leases) AS lease
              WHERE (lease->>'expires_at')::timestamptz > now() AND lease->>'reviewer' <> ${reviewer})
              < ${queue.reviewsPerItem}
          ORDER BY (${reviewer}::text = ANY (candidate.skipped_by)), candidate.position
          LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, generation_id, review_count, created_at, completed_at, 'in_review' AS status,
          leases->-1->>'expires_at' AS lease_expires_at`);
      const [row] = rowsOf<RawItem>(taken);
      return row && itemOf(row, queue);
    },

    /** Gives up the reviewer's lease of an item; answers whether they held a live one. */
    async release(queueId: string, itemId: string, reviewer: string): Promise<boolean> {
      const released = await database.execute(sql`UPDATE ${reviewItems}
        SET leases = ${leasesWithout(reviewer)},
          skipped_by = CASE WHEN ${reviewer}::text = ANY (skipped_by) THEN skipped_by
            ELSE array_append(skipped_by, ${reviewer}::text) END
        WHERE queue_id = ${queueId} AND id = ${itemId}
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(leases) AS lease
            WHERE lease->>'reviewer' = ${reviewer} AND (lease->>'expires_at')::timestamptz > now())
        RETURNING id`);
      return rowsOf(released).length > 0;
    },

    /** Live leases of others than `reviewer` on a locked item (reviews.ts checks a lease-less review). */
    liveLeasesOf(item: ItemRow, reviewer: string): number {
      const now = Date.now();
      return item.leases.filter(
        (lease) => lease.reviewer !== reviewer && new Date(lease.expires_at).getTime() > now,
      ).length;
    },

    /** Stores a review and counts it on its (locked) item; completes the item at `reviewsPerItem`. */
    async insertReview(row: typeof reviews.$inferInsert, reviewsPerItem: number): Promise<ReviewRow> {
      const [review] = await database.insert(reviews).values(row).returning();
      await database
        .update(reviewItems)
        .set({
          reviewCount: sql`${reviewItems.reviewCount} + 1`,
          reviewedBy: sql`array_append(${reviewItems.reviewedBy}, ${row.reviewerId}::text)`,
          leases: leasesWithout(row.reviewerId),
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
            AND (lease->>'expires_at')::timestamptz > now()
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

    /** The evaluator's score of each generation of the queue that has one it could compute. */
    async scoresOf(queueId: string, evaluatorId: string): Promise<Map<string, number>> {
      const rows = await database
        .select({ generationId: generationScores.generationId, score: generationScores.score })
        .from(generationScores)
        .innerJoin(reviewItems, eq(reviewItems.generationId, generationScores.generationId))
        .where(
          and(
            eq(reviewItems.queueId, queueId),
            eq(generationScores.evaluatorId, evaluatorId),
            sql`${generationScores.score} IS NOT NULL`,
          ),
        );
      return new Map(rows.map((row) => [row.generationId, row.score!]));
    },

    /** Every review of the queue, with its item's generation: what agreement is computed from. */
    async reviewsOfQueue(
      queueId: string,
    ): Promise<{ itemId: string; generationId: string; answers: ReviewRow['answers'] }[]> {
      return database
        .select({ itemId: reviews.itemId, generationId: reviewItems.generationId, answers: reviews.answers })
        .from(reviews)
        .innerJoin(reviewItems, eq(reviewItems.id, reviews.itemId))
        .where(eq(reviews.queueId, queueId));
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
