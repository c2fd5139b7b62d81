import { describe, expect, it } from 'vitest';
import { createWriteCoalescer } from '../../src/platform/write-coalescer.js';

/** A write whose calls finish only when the test says so, recording what each call carried. */
function controlledWrites() {
  const calls: Array<{ key: string; items: string[]; finish: (error?: Error) => void }> = [];
  const coalescer = createWriteCoalescer<string, string>({
    maximumItems: 3,
    write: (key, items) =>
      new Promise((resolve, reject) => {
        calls.push({
          key,
          items,
          finish: (error) => (error ? reject(error) : resolve(items.map((item) => `${item} written`))),
        });
      }),
  });
  return { calls, coalescer };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

/** Lets the event loop turn until `count` writes have started (the coalescer yields a turn before each). */
async function untilCalls(calls: unknown[], count: number) {
  for (let turn = 0; turn < 20 && calls.length < count; turn++) await settled();
  expect(calls).toHaveLength(count);
}

describe('write coalescer (group commit)', () => {
  it('writes a lone item after one turn of the event loop, and groups the items that arrive while a write of their key runs', async () => {
    const { calls, coalescer } = controlledWrites();
    const first = coalescer.write('context-a', 'one');
    await untilCalls(calls, 1);
    expect(calls.map((call) => call.items)).toEqual([['one']]);
    const later = ['two', 'three', 'four', 'five'].map((item) => coalescer.write('context-a', item));
    const otherKey = coalescer.write('context-b', 'elsewhere');
    await untilCalls(calls, 2);
    // Another key does not wait; the same key waits for the running write.
    expect(calls.map((call) => call.items)).toEqual([['one'], ['elsewhere']]);
    calls[0]!.finish();
    expect(await first).toBe('one written');
    await untilCalls(calls, 3);
    // At most three a call, in arrival order.
    expect(calls[2]!.items).toEqual(['two', 'three', 'four']);
    calls[2]!.finish();
    await untilCalls(calls, 4);
    expect(calls[3]!.items).toEqual(['five']);
    calls[3]!.finish();
    calls[1]!.finish();
    expect(await Promise.all(later)).toEqual([
      'two written',
      'three written',
      'four written',
      'five written',
    ]);
    expect(await otherKey).toBe('elsewhere written');
  });

  it('writes a failed group again one item at a time, so only the bad item fails', async () => {
    const coalescer = createWriteCoalescer<string, string>({
      maximumItems: 10,
      async write(_key, items) {
        if (items.includes('bad')) throw new Error(`refused ${items.length}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return items.map((item) => item.toUpperCase());
      },
    });
    const results = await Promise.allSettled(
      ['first', 'good', 'bad', 'fine'].map((item) => coalescer.write('key', item)),
    );
    expect(results).toEqual([
      { status: 'fulfilled', value: 'FIRST' },
      { status: 'fulfilled', value: 'GOOD' },
      { status: 'rejected', reason: new Error('refused 1') },
      { status: 'fulfilled', value: 'FINE' },
    ]);
  });
});
