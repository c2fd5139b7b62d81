import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { GenerationRepository } from '../data/repository.js';
import type { FeedbackRepository, FeedbackRow } from './repository.js';
import type { FeedbackInput, UpdateFeedbackInput } from './schemas.js';

/** The feedback record of SPEC §2. */
export function presentFeedback(row: FeedbackRow) {
  return {
    guid: row.id,
    data: row.generationId,
    type: row.type,
    value: row.value,
    source: row.source,
    created_by_id: row.createdById,
    metadata: row.metadata,
    // The official SDK reads metadata under this name (CONTRACT §12).
    meta_data: row.metadata,
    deleted: row.deleted,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function createFeedbackService(repository: FeedbackRepository, generations: GenerationRepository) {
  return {
    /** One record per request; `createdBy` is the API key that wrote it. */
    async create(workspaceId: string, createdBy: string, dataGuid: string, input: FeedbackInput) {
      const generation = await generations.find(workspaceId, dataGuid);
      if (!generation) throw new NotFoundError('Data not found');
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        generationId: generation.id,
        type: input.type,
        value: input.value,
        source: input.source ?? 'api',
        createdById: createdBy,
        metadata: input.metadata ?? {},
      });
      return presentFeedback(row);
    },

    async get(workspaceId: string, id: string) {
      const row = await repository.find(workspaceId, id);
      if (!row) throw new NotFoundError('Feedback not found');
      return presentFeedback(row);
    },

    async update(workspaceId: string, id: string, input: UpdateFeedbackInput) {
      const stored = await repository.find(workspaceId, id);
      if (!stored) throw new NotFoundError('Feedback not found');
      if (input.data !== undefined && input.data !== stored.generationId)
        throw new ValidationError('feedback stays on the generation it was given for', 'data');
      const metadata = input.metadata ?? input.meta_data;
      const row = await repository.update(workspaceId, id, {
        ...(input.type !== undefined && { type: input.type }),
        ...(input.value !== undefined && { value: input.value }),
        ...(input.source !== undefined && { source: input.source }),
        ...(metadata !== undefined && { metadata: metadata ?? {} }),
      });
      if (!row) throw new NotFoundError('Feedback not found');
      return presentFeedback(row);
    },

    /** Marks the record deleted (SPEC §2 `deleted`): reads of the generation leave it out. */
    async remove(workspaceId: string, id: string) {
      const row = await repository.update(workspaceId, id, { deleted: true });
      if (!row) throw new NotFoundError('Feedback not found');
      return presentFeedback(row);
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
