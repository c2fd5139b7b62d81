import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { type DataDirectoryLock, lockDataDirectory } from '../platform/data-directory-lock.js';

/** One spooled line: what to log, with the key to log it with. */
export type SpoolEntry<Item> = Item & { spoolStart: number; spoolEnd: number };

export type SpoolOptions = {
  directory: string;
  /** Bytes not yet shipped at most; an append past it is refused (the caller drops and counts it). */
  maximumBytes: number;
  /** A segment file is closed and a new one begun past this size; shipped segments are deleted. */
  segmentBytes?: number;
  warn(message: string): void;
};

const segmentPattern = /^segment-(\d{16})\.jsonl$/;
const segmentName = (start: number) => `segment-${String(start).padStart(16, '0')}.jsonl`;
const cursorFile = 'cursor.json';
/** How much of a segment one read takes at a time (a longer line doubles it). */
const readChunkBytes = 1024 * 1024;

/**
 * The gateway's write-ahead log of interactions (docs/operations.md#the-gateways-spool): every
 * interaction is appended as a JSON line to a segment file before it is shipped, so a restart —
 * or a `kill -9` — loses nothing the kernel was given, and an outage of the service fills the disk
 * (up to `maximumBytes`) instead of dropping logs. Positions are byte offsets across all segments
 * since the spool began; the cursor is the offset below which everything was shipped (or refused).
 * Synchronous file calls: the spool lives on the log worker's thread, never the proxy's.
 */
export function openSpool<Item>(options: SpoolOptions) {
  const segmentBytes = options.segmentBytes ?? 8 * 1024 * 1024;
  mkdirSync(options.directory, { recursive: true, mode: 0o700 });
  const lock: DataDirectoryLock = lockDataDirectory(
    options.directory,
    options.warn,
    'LECTERN_GATEWAY_DATA_DIR',
  );
  const file = (name: string) => path.join(options.directory, name);

  /** The start offsets of the segment files, in order. */
  const segmentStarts = () =>
    readdirSync(options.directory)
      .map((name) => segmentPattern.exec(name)?.[1])
      .filter((start): start is string => start !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  const starts = segmentStarts();
  let cursor = existsSync(file(cursorFile))
    ? (JSON.parse(readFileSync(file(cursorFile), 'utf8')) as { offset: number }).offset
    : (starts[0] ?? 0);
  let currentStart = starts.at(-1) ?? cursor;
  let descriptor = openSync(file(segmentName(currentStart)), 'a+', 0o600);
  // A line cut by a crash mid-write is dropped: the segment ends at its last whole line.
  let currentSize = wholeLinesLength(descriptor);
  let writeOffset = currentStart + currentSize;
  let dirty = false;
  let cursorDirty = false;

  /** The segments that hold `offset` or anything after it. */
  function segmentsFrom(offset: number): number[] {
    const all = segmentStarts();
    return all.filter((_, index) => (all[index + 1] ?? Number.POSITIVE_INFINITY) > offset);
  }

  function rotate(): void {
    fsyncSync(descriptor);
    closeSync(descriptor);
    currentStart = writeOffset;
    currentSize = 0;
    descriptor = openSync(file(segmentName(currentStart)), 'a+', 0o600);
  }

  return {
    /**
     * Appends an entry (written to the kernel at once: it survives the process being killed); its
     * end offset, or undefined when the spool is full.
     */
    append(entry: Item): { start: number; end: number } | undefined {
      const line = `${JSON.stringify(entry)}\n`;
      const bytes = Buffer.byteLength(line);
      if (writeOffset - cursor + bytes > options.maximumBytes) return undefined;
      if (currentSize > 0 && currentSize + bytes > segmentBytes) rotate();
      writeSync(descriptor, line);
      const start = writeOffset;
      currentSize += bytes;
      writeOffset += bytes;
      dirty = true;
      return { start, end: writeOffset };
    },

    /**
     * Up to `maximumEntries` entries from `offset` (a line's start) on, in order. Only the part of a
     * segment from `offset` is read, about a megabyte at a time, never the segment again from its start.
     */
    read(offset: number, maximumEntries: number): SpoolEntry<Item>[] {
      const entries: SpoolEntry<Item>[] = [];
      for (const start of segmentsFrom(offset)) {
        const segment = openSync(file(segmentName(start)), 'r');
        try {
          const size = fstatSync(segment).size;
          let position = Math.max(0, offset - start);
          let chunkBytes = readChunkBytes;
          while (entries.length < maximumEntries && position < size) {
            const chunk = Buffer.alloc(Math.min(chunkBytes, size - position));
            readSync(segment, chunk, 0, chunk.length, position);
            let from = 0;
            for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
              const item = JSON.parse(chunk.subarray(from, newline).toString('utf8')) as Item;
              entries.push({
                ...item,
                spoolStart: start + position + from,
                spoolEnd: start + position + newline + 1,
              });
              from = newline + 1;
              if (entries.length >= maximumEntries) break;
            }
            // A line longer than the chunk: read it whole next time.
            if (from === 0) {
              if (chunk.length === size - position) break;
              chunkBytes *= 2;
            }
            position += from;
          }
        } finally {
          closeSync(segment);
        }
        if (entries.length >= maximumEntries) break;
      }
      return entries;
    },

    /** Everything below `offset` is shipped: whole segments below it are deleted at the next sync. */
    acknowledge(offset: number): void {
      if (offset <= cursor) return;
      cursor = offset;
      cursorDirty = true;
    },

    /**
     * Makes appends durable (fsync) and records the cursor; run every few hundred milliseconds, so
     * that even a machine that loses power loses at most that much.
     */
    sync(): void {
      if (dirty) fsyncSync(descriptor);
      dirty = false;
      if (!cursorDirty) return;
      const temporary = file(`${cursorFile}.tmp`);
      writeFileSync(temporary, JSON.stringify({ offset: cursor }), { mode: 0o600 });
      renameSync(temporary, file(cursorFile));
      cursorDirty = false;
      const segments = segmentsFrom(0);
      for (const [index, start] of segments.entries()) {
        const next = segments[index + 1];
        if (next !== undefined && next <= cursor) rmSync(file(segmentName(start)), { force: true });
      }
    },

    /** Offsets: where shipping stands, and where the next append goes. */
    cursor: () => cursor,
    end: () => writeOffset,
    /** Bytes spooled and not yet shipped. */
    pendingBytes: () => writeOffset - cursor,

    close(): void {
      this.sync();
      closeSync(descriptor);
      lock.release();
    },
  };
}

/** The length of a segment up to its last newline; anything after it (a half-written line) is cut. */
function wholeLinesLength(descriptor: number): number {
  const size = fstatSync(descriptor).size;
  if (size === 0) return 0;
  const tailBytes = Math.min(size, 64 * 1024);
  let end = size;
  for (let from = size; from > 0; from -= tailBytes) {
    const start = Math.max(0, from - tailBytes);
    const buffer = Buffer.alloc(from - start);
    readSync(descriptor, buffer, 0, buffer.length, start);
    const newline = buffer.lastIndexOf(10);
    if (newline !== -1) {
      end = start + newline + 1;
      break;
    }
    end = start;
  }
  if (end < size) ftruncateSync(descriptor, end);
  return end;
}

export type Spool<Item> = ReturnType<typeof openSpool<Item>>;
