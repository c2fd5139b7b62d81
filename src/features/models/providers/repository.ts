import { and, asc, desc, eq, ne, or } from 'drizzle-orm';
import { isProviderKind } from '../../../llm/provider-kinds.js';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, pageWithTotal, tablePage, totalOf } from '../../../platform/database/pages.js';
import { models, providers } from './tables.js';

export type ProviderRow = typeof providers.$inferSelect;
export type ModelRow = typeof models.$inferSelect;

export function createProviderRepository(database: Database) {
  return {
    /** Inserts or updates a provider; making it the default clears the kind's other default atomically. */
    async save(row: typeof providers.$inferInsert, existingId?: string): Promise<ProviderRow> {
      return database.transaction(async (transaction) => {
        if (row.isDefault) {
          await transaction
            .update(providers)
            .set({ isDefault: false })
            .where(
              and(
                eq(providers.workspaceId, row.workspaceId),
                eq(providers.kind, row.kind),
                ne(providers.id, row.id),
              ),
            );
        }
        if (existingId) {
          const [updated] = await transaction
            .update(providers)
            .set({ ...row, updatedAt: new Date() })
            .where(and(eq(providers.workspaceId, row.workspaceId), eq(providers.id, existingId)))
            .returning();
          return updated!;
        }
        const [inserted] = await transaction.insert(providers).values(row).returning();
        return inserted!;
      });
    },
    async find(workspaceId: string, id: string): Promise<ProviderRow | undefined> {
      const [row] = await database
        .select()
        .from(providers)
        .where(and(eq(providers.workspaceId, workspaceId), eq(providers.id, id)));
      return row;
    },
    async list(workspaceId: string, skip: number, limit: number) {
      return tablePage(
        database,
        providers,
        eq(providers.workspaceId, workspaceId),
        newestFirst(providers),
        skip,
        limit,
      );
    },
    /** Providers a `"<prefix>/<model>"` reference can mean: by nickname first, else by kind, default first. */
    async findByPrefix(workspaceId: string, prefix: string): Promise<ProviderRow | undefined> {
      const [byNickname] = await database
        .select()
        .from(providers)
        .where(and(eq(providers.workspaceId, workspaceId), eq(providers.nickname, prefix)));
      if (byNickname || !isProviderKind(prefix)) return byNickname;
      const [byKind] = await database
        .select()
        .from(providers)
        .where(and(eq(providers.workspaceId, workspaceId), eq(providers.kind, prefix)))
        .orderBy(desc(providers.isDefault), desc(providers.createdAt))
        .limit(1);
      return byKind;
    },
    async remove(workspaceId: string, id: string): Promise<boolean> {
      const deleted = await database
        .delete(providers)
        .where(and(eq(providers.workspaceId, workspaceId), eq(providers.id, id)))
        .returning({ id: providers.id });
      return deleted.length > 0;
    },
    async countModels(workspaceId: string, providerId: string): Promise<number> {
      return totalOf(
        database,
        models,
        and(eq(models.workspaceId, workspaceId), eq(models.providerId, providerId)),
      );
    },
    /** A default model clears the workspace's other default in the same transaction. */
    async insertModel(row: typeof models.$inferInsert): Promise<ModelRow> {
      return database.transaction(async (transaction) => {
        if (row.isDefault) {
          await transaction
            .update(models)
            .set({ isDefault: false })
            .where(and(eq(models.workspaceId, row.workspaceId), eq(models.isDefault, true)));
        }
        const [model] = await transaction.insert(models).values(row).returning();
        return model!;
      });
    },
    async findModel(
      workspaceId: string,
      id: string,
    ): Promise<{ model: ModelRow; provider: ProviderRow } | undefined> {
      const [row] = await database
        .select({ model: models, provider: providers })
        .from(models)
        .innerJoin(providers, eq(providers.id, models.providerId))
        .where(and(eq(models.workspaceId, workspaceId), eq(models.id, id)));
      return row;
    },
    /**
     * The workspace's default model: the model record marked default, else the oldest model record of
     * a default provider.
     */
    async findDefaultModel(
      workspaceId: string,
    ): Promise<{ model: ModelRow; provider: ProviderRow } | undefined> {
      const [row] = await database
        .select({ model: models, provider: providers })
        .from(models)
        .innerJoin(providers, eq(providers.id, models.providerId))
        .where(
          and(
            eq(models.workspaceId, workspaceId),
            or(eq(models.isDefault, true), eq(providers.isDefault, true)),
          ),
        )
        .orderBy(desc(models.isDefault), asc(models.createdAt))
        .limit(1);
      return row;
    },
    async listModels(workspaceId: string, skip: number, limit: number) {
      return pageWithTotal(
        database
          .select({ model: models, provider: providers })
          .from(models)
          .innerJoin(providers, eq(providers.id, models.providerId))
          .where(eq(models.workspaceId, workspaceId))
          .orderBy(...newestFirst(models))
          .offset(skip)
          .limit(limit),
        totalOf(database, models, eq(models.workspaceId, workspaceId)),
      );
    },
    async removeModel(workspaceId: string, id: string): Promise<boolean> {
      const deleted = await database
        .delete(models)
        .where(and(eq(models.workspaceId, workspaceId), eq(models.id, id)))
        .returning({ id: models.id });
      return deleted.length > 0;
    },
  };
}

export type ProviderRepository = ReturnType<typeof createProviderRepository>;
