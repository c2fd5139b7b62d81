import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ErrorCode } from '../../../core/error-codes.js';
import type {
  WorkflowBlockType,
  WorkflowRunBlockStatus,
  WorkflowRunStatus,
} from '../../../core/json-columns.js';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { apps } from '../../authoring/apps/tables.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/** A Workflow: ordered blocks of an App, triggered as runs (docs/api.md#how-the-parts-behave). */
export const workflows = pgTable(
  'workflows',
  {
    ...tenantKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('workflows_app_index').on(table.workspaceId, table.appId, table.createdAt)],
);

/** The stored blocks of a Workflow, in order; `PUT .../blocks` replaces them all. */
export const workflowBlocks = pgTable(
  'workflow_blocks',
  {
    id: uuid('id').primaryKey(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<WorkflowBlockType>().notNull(),
    actionId: uuid('action_id').references(() => actions.id, { onDelete: 'cascade' }),
    /** Template variable → text with `{{input.KEY}}` and `{{blocks.NAME}}`; null = the previous output. */
    input: jsonb('input').$type<Record<string, string>>(),
  },
  (table) => [
    uniqueIndex('workflow_blocks_position_unique').on(table.workflowId, table.position),
    uniqueIndex('workflow_blocks_name_unique').on(table.workflowId, table.name),
  ],
);

/** One trigger (or playground run) of a Workflow; its blocks are copied so later edits change nothing. */
export const workflowRuns = pgTable(
  'workflow_runs',
  {
    ...tenantKey(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<WorkflowRunStatus>().notNull(),
    result: text('result'),
    error: text('error'),
    playground: boolean('playground').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('workflow_runs_workflow_index').on(table.workflowId, table.createdAt)],
);

/** A block as one run executes it: the copied definition, its generation and its outcome. */
export const workflowRunBlocks = pgTable(
  'workflow_run_blocks',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => workflowRuns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    blockId: uuid('block_id').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<WorkflowBlockType>().notNull(),
    actionId: uuid('action_id'),
    actionName: text('action_name'),
    input: jsonb('input').$type<Record<string, string>>(),
    /** Chosen at trigger time (the response names it), so a retried block never stores a second record. */
    generationId: uuid('generation_id'),
    status: text('status').$type<WorkflowRunBlockStatus>().notNull(),
    output: text('output'),
    errorStatus: integer('error_status'),
    errorCode: text('error_code').$type<ErrorCode>(),
    error: text('error'),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.position] }),
    uniqueIndex('workflow_run_blocks_block_unique').on(table.runId, table.blockId),
  ],
);
