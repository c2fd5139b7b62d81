import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { evaluators } from './tables.js';

export type EvaluatorRow = typeof evaluators.$inferSelect;

const live = (workspaceId: string) =>
  and(eq(evaluators.workspaceId, workspaceId), isNull(evaluators.deletedAt));

export function createEvaluatorRepository(database: Database) {
  return {
    async insert(row: typeof evaluators.$inferInsert): Promise<EvaluatorRow> {
      const [evaluator] = await database.insert(evaluators).values(row).returning();
      return evaluator!;
    },
    async find(workspaceId: string, id: string): Promise<EvaluatorRow | undefined> {
      const [evaluator] = await database
        .select()
        .from(evaluators)
        .where(and(live(workspaceId), eq(evaluators.id, id)));
      return evaluator;
    },
    async list(workspaceId: string, skip: number, limit: number) {
      return tablePage(database, evaluators, live(workspaceId), newestFirst(evaluators), skip, limit);
    },
    async update(
      workspaceId: string,
      id: string,
      changes: Partial<Pick<EvaluatorRow, 'name' | 'config' | 'deletedAt'>>,
    ): Promise<EvaluatorRow | undefined> {
      const [evaluator] = await database
        .update(evaluators)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(live(workspaceId), eq(evaluators.id, id)))
        .returning();
      return evaluator;
    },
  };
}

export type EvaluatorRepository = ReturnType<typeof createEvaluatorRepository>;
