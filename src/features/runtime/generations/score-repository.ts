import type { Database } from '../../../platform/database/connection.js';
import { generationScores } from './tables.js';

/** A monitor's score of one generation by one evaluator (null with the reason when it could not be computed). */
export type NewScore = typeof generationScores.$inferInsert;

/**
 * The scores a generation is given after it is stored. A score is the generation's (the Generations
 * list filters on it, the Dashboard averages it by the generation's day), so its table is here; the
 * monitors compute the scores and hand them in.
 */
export function createScoreRepository(database: Database) {
  return {
    /** Stores scores; a repeated sweep's are already there and change nothing. */
    async store(scores: NewScore[]): Promise<void> {
      if (scores.length > 0) await database.insert(generationScores).values(scores).onConflictDoNothing();
    },
  };
}

export type ScoreRepository = ReturnType<typeof createScoreRepository>;
