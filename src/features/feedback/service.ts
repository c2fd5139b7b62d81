import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../errors.js';
import type { GenerationRepository } from '../data/repository.js';
import type { FeedbackRepository, FeedbackRow } from './repository.js';
import type { FeedbackInput } from './schemas.js';

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
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
