import type { Lane } from './embedded-protocol.js';

/**
 * Whose work the embedded database runs next. PGlite runs one statement (or one open transaction)
 * at a time, first come first served: a tenant's bulk writes queued ahead made another tenant's
 * one-row read wait for all of them. Interactive work goes first; while both wait, every
 * `bulkEvery`-th turn is bulk, so bulk work always moves.
 */
export function createTurns<Work>(bulkEvery = 4) {
  const waiting: Record<Lane, Work[]> = { interactive: [], bulk: [] };
  let interactiveInARow = 0;
  return {
    add(lane: Lane, work: Work): void {
      waiting[lane].push(work);
    },
    next(): Work | undefined {
      const bulkWaits = waiting.bulk.length > 0;
      if (bulkWaits && (waiting.interactive.length === 0 || interactiveInARow >= bulkEvery)) {
        interactiveInARow = 0;
        return waiting.bulk.shift();
      }
      const work = waiting.interactive.shift();
      interactiveInARow = work !== undefined && bulkWaits ? interactiveInARow + 1 : 0;
      return work;
    },
  };
}
