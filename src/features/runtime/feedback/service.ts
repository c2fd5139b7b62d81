import { randomUUID } from 'node:crypto';
import { givenFields } from '../../../core/defined.js';
import { NotFoundError, ValidationError } from '../../../errors.js';
import type { FeedbackRepository, FeedbackRow } from './repository.js';

/** Feedback: a type and value attached to one generation. */
export type Feedback = FeedbackRow;

/** When a generation of the workspace was made, or undefined when there is none; the data feature answers it. */
export type GenerationLookup = (workspaceId: string, generationId: string) => Promise<Date | undefined>;

/** Told after feedback is added or removed: the dashboard's rollup of that generation's day is stale. */
export type GenerationChanged = (workspaceId: string, createdAt: Date) => Promise<void>;

/** What feedback says: its type, value, where it came from and any metadata. */
export type FeedbackFields = {
  type: string;
  value: string;
  source?: string;
  metadata?: Record<string, unknown> | null;
};

/** A change to a feedback record: a field left out keeps its value; it stays on its generation. */
export type FeedbackChanges = Partial<FeedbackFields> & { generationId?: string };

export interface FeedbackService {
  /** One record per request; `createdBy` is the API key that wrote it. */
  create(
    workspaceId: string,
    createdBy: string,
    generationId: string,
    input: FeedbackFields,
  ): Promise<Feedback>;
  get(workspaceId: string, id: string): Promise<Feedback>;
  update(workspaceId: string, id: string, changes: FeedbackChanges): Promise<Feedback>;
  /** Marks the record deleted: reads of the generation leave it out. */
  remove(workspaceId: string, id: string): Promise<Feedback>;
  /** The non-deleted feedback of these generations. */
  listForGenerations(workspaceId: string, generationIds: string[]): Promise<Feedback[]>;
}

export function createFeedbackService(dependencies: {
  repository: FeedbackRepository;
  generationCreatedAt: GenerationLookup;
  changed: GenerationChanged;
}): FeedbackService {
  const { repository, generationCreatedAt, changed } = dependencies;
  /** After the feedback is stored, so a rollup computed meanwhile is stamped stale. */
  async function generationChanged(workspaceId: string, generationId: string): Promise<void> {
    const createdAt = await generationCreatedAt(workspaceId, generationId);
    if (createdAt) await changed(workspaceId, createdAt);
  }

  return {
    async create(workspaceId, createdBy, generationId, input) {
      const createdAt = await generationCreatedAt(workspaceId, generationId);
      if (!createdAt) throw new NotFoundError('Data not found');
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        generationId,
        type: input.type,
        value: input.value,
        source: input.source ?? 'api',
        createdById: createdBy,
        metadata: input.metadata ?? {},
      });
      await changed(workspaceId, createdAt);
      return row;
    },

    async get(workspaceId, id) {
      const row = await repository.find(workspaceId, id);
      if (!row) throw new NotFoundError('Feedback not found');
      return row;
    },

    async update(workspaceId, id, { generationId, metadata, ...fields }) {
      const stored = await repository.find(workspaceId, id);
      if (!stored) throw new NotFoundError('Feedback not found');
      if (generationId !== undefined && generationId !== stored.generationId)
        throw new ValidationError('data', 'feedback stays on the generation it was given for');
      const row = await repository.update(workspaceId, id, {
        ...givenFields(fields),
        ...(metadata !== undefined && { metadata: metadata ?? {} }),
      });
      if (!row) throw new NotFoundError('Feedback not found');
      return row;
    },

    async remove(workspaceId, id) {
      const row = await repository.update(workspaceId, id, { deleted: true });
      if (!row) throw new NotFoundError('Feedback not found');
      await generationChanged(workspaceId, row.generationId);
      return row;
    },

    listForGenerations: (workspaceId, generationIds) =>
      repository.listForGenerations(workspaceId, generationIds),
  };
}
