import { appendFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openSpool } from '../../src/gateway/spool.js';
import { temporaryDirectory } from '../helpers/test-app.js';

type Item = { value: number };
const quiet = () => undefined;
const open = (directory: string, maximumBytes = 1024 * 1024, segmentBytes = 1024) =>
  openSpool<Item>({ directory, maximumBytes, segmentBytes, warn: quiet });

it('keeps appended entries across a reopen and resumes after the acknowledged ones', () => {
  const directory = temporaryDirectory();
  const first = open(directory);
  const places = Array.from({ length: 100 }, (_, value) => first.append({ value })!);
  first.acknowledge(places[39]!.end);
  first.close();

  const second = open(directory);
  expect(second.cursor()).toBe(places[39]!.end);
  const rest = second.read(second.cursor(), 1_000);
  expect(rest.map((entry) => entry.value)).toEqual(Array.from({ length: 60 }, (_, index) => index + 40));
  // New appends continue after the old ones.
  const next = second.append({ value: 100 })!;
  expect(next.start).toBe(places[99]!.end);
  second.close();
});

it('deletes whole segments once everything in them is acknowledged', () => {
  const directory = temporaryDirectory();
  const spool = open(directory);
  const places = Array.from({ length: 200 }, (_, value) => spool.append({ value })!);
  const segments = () => readdirSync(directory).filter((name) => name.startsWith('segment-')).length;
  const before = segments();
  expect(before).toBeGreaterThanOrEqual(3);
  spool.acknowledge(places[150]!.end);
  spool.sync();
  expect(segments()).toBeLessThan(before);
  expect(spool.read(spool.cursor(), 1_000).map((entry) => entry.value)[0]).toBe(151);
  spool.close();
});

it('refuses an append past its size, counting only what is not yet acknowledged', () => {
  const spool = open(temporaryDirectory(), 200, 1_000);
  const accepted: Array<{ start: number; end: number }> = [];
  for (let value = 0; value < 100; value++) {
    const place = spool.append({ value });
    if (!place) break;
    accepted.push(place);
  }
  expect(accepted.length).toBeGreaterThan(5);
  expect(accepted.length).toBeLessThan(20);
  expect(spool.append({ value: 1 })).toBeUndefined();
  spool.acknowledge(accepted.at(-1)!.end);
  expect(spool.append({ value: 2 })).toBeDefined();
  spool.close();
});

it('drops a line a crash cut in half, keeping every whole one', () => {
  const directory = temporaryDirectory();
  const spool = open(directory, 1024 * 1024, 1024 * 1024);
  spool.append({ value: 1 });
  spool.append({ value: 2 });
  spool.close();
  const [segment] = readdirSync(directory).filter((name) => name.startsWith('segment-'));
  appendFileSync(path.join(directory, segment!), '{"value":3');
  const reopened = open(directory, 1024 * 1024, 1024 * 1024);
  expect(reopened.read(reopened.cursor(), 10).map((entry) => entry.value)).toEqual([1, 2]);
  reopened.append({ value: 4 });
  expect(reopened.read(reopened.cursor(), 10).map((entry) => entry.value)).toEqual([1, 2, 4]);
  reopened.close();
});

it('is held by one gateway at a time', () => {
  const directory = temporaryDirectory();
  const spool = open(directory);
  expect(() => open(directory)).toThrow(/in use by another Lectern process.*LECTERN_GATEWAY_DATA_DIR/);
  spool.close();
  open(directory).close();
});

it('reads back an entry longer than one read, between short ones', () => {
  const spool = openSpool<{ value: number; text?: string }>({
    directory: temporaryDirectory(),
    maximumBytes: 64 * 1024 * 1024,
    warn: quiet,
  });
  spool.append({ value: 1 });
  spool.append({ value: 2, text: 'x'.repeat(2_500_000) });
  spool.append({ value: 3 });
  const entries = spool.read(spool.cursor(), 10);
  expect(entries.map((entry) => entry.value)).toEqual([1, 2, 3]);
  expect(entries[1]!.text).toHaveLength(2_500_000);
  // Reading from an entry's start takes up from there.
  expect(spool.read(entries[1]!.spoolStart, 10).map((entry) => entry.value)).toEqual([2, 3]);
  spool.close();
});
