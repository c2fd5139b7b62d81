import { nextTurn } from '../core/next-turn.js';

/**
 * Group commit for writes that share a key: while one write of a key runs, later writes of that key
 * wait and then go together in a single call of `write`. Under load a call carries many items and
 * their per-statement costs are paid once; alone, a write waits one turn of the event loop.
 *
 * A group that fails is written again one item at a time, so one bad item fails only its own caller.
 */
export type WriteCoalescer<Item, Result> = {
  write(key: string, item: Item): Promise<Result>;
};

type Waiting<Item, Result> = {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
};

export function createWriteCoalescer<Item, Result>(options: {
  /** Writes the items of one key; answers one result per item, in order. */
  write: (key: string, items: Item[]) => Promise<Result[]>;
  /** At most this many items in one call. */
  maximumItems: number;
}): WriteCoalescer<Item, Result> {
  const queued = new Map<string, Waiting<Item, Result>[]>();
  const running = new Set<string>();

  async function writeAlone(key: string, waiting: Waiting<Item, Result>) {
    try {
      const [result] = await options.write(key, [waiting.item]);
      waiting.resolve(result as Result);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function drain(key: string) {
    running.add(key);
    try {
      for (;;) {
        // One turn of the event loop first: on the embedded database every statement runs on this
        // thread and the next is chained by promise, so requests already received are parsed (and
        // join the group) only once the loop gets to its I/O phase.
        await nextTurn();
        const waiting = queued.get(key) ?? [];
        if (waiting.length === 0) break;
        const group = waiting.splice(0, options.maximumItems);
        if (group.length === 1) {
          await writeAlone(key, group[0]!);
          continue;
        }
        try {
          const results = await options.write(
            key,
            group.map((entry) => entry.item),
          );
          for (const [index, entry] of group.entries()) entry.resolve(results[index] as Result);
        } catch {
          for (const entry of group) await writeAlone(key, entry);
        }
      }
    } finally {
      queued.delete(key);
      running.delete(key);
    }
  }

  return {
    write(key, item) {
      return new Promise<Result>((resolve, reject) => {
        const waiting = queued.get(key) ?? [];
        waiting.push({ item, resolve, reject });
        queued.set(key, waiting);
        if (!running.has(key)) void drain(key);
      });
    },
  };
}
