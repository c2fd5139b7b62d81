import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/** Who holds a data directory: enough to tell whether that process still lives. */
type Holder = {
  pid: number;
  host: string;
  /** The process's start time in clock ticks since boot (Linux), so a reused PID is not taken for it. */
  startTicks?: number;
  since: string;
};

/** Why a second process may not open the embedded database. */
export class DataDirectoryInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly holder: Holder,
    setting: string,
  ) {
    super(
      `The data directory ${directory} is in use by another Lectern process (PID ${holder.pid} on ${holder.host}, since ${holder.since}). ` +
        `Two processes writing one data directory corrupt it: stop that process first, or give this one another ${setting}.`,
    );
    this.name = 'DataDirectoryInUseError';
  }
}

export type DataDirectoryLock = { release(): void };

const lockFileName = 'lectern.lock';

/** A process's start time from /proc (field 22 of its stat line), or undefined where there is none. */
function startTicksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(holder: Holder): boolean {
  // Another host's process (a data directory on a network file system) cannot be checked: it holds.
  if (holder.host !== hostname()) return true;
  // Unreadable lock contents (pid -1): nobody. kill() must never see such a pid: -1 means "everyone".
  if (holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const ticks = startTicksOf(holder.pid);
  return holder.startTicks === undefined || ticks === undefined || ticks === holder.startTicks;
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Holder;
    return Number.isInteger(holder.pid) ? holder : { pid: -1, host: hostname(), since: 'unknown' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // Unreadable or half-written (its writer died between create and write): nobody holds it.
    return { pid: -1, host: hostname(), since: 'unknown' };
  }
}

const sameHolder = (one: Holder | undefined, other: Holder) =>
  one?.pid === other.pid && one.startTicks === other.startTicks && one.since === other.since;

/**
 * Takes the embedded database's data directory for this process alone: `lectern.lock` names the
 * holder, created with O_EXCL so only one process can make it. A lock whose holder died (`kill -9`,
 * a crash) is stale: it is moved aside atomically and checked — if what was moved is not the stale
 * lock that was read (a racing process took over first), it is put back — and then taken.
 */
export function lockDataDirectory(
  directory: string,
  warn: (message: string) => void,
  /** The setting that names the directory, for the refusal's advice. */
  setting = 'LECTERN_DATA_DIR',
): DataDirectoryLock {
  const file = path.join(directory, lockFileName);
  const self: Holder = {
    pid: process.pid,
    host: hostname(),
    startTicks: startTicksOf(process.pid),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const descriptor = openSync(file, 'wx', 0o600);
      try {
        writeSync(descriptor, JSON.stringify(self));
      } finally {
        closeSync(descriptor);
      }
      return {
        release() {
          // Only our own lock: never one a later process took over after ours was judged stale.
          if (sameHolder(readHolder(file), self)) unlinkSync(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (!holder) continue;
    if (isAlive(holder)) throw new DataDirectoryInUseError(directory, holder, setting);
    const aside = `${file}.${process.pid}.stale`;
    try {
      renameSync(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (!sameHolder(readHolder(aside), holder)) {
      // A racing process replaced the stale lock with its own in between: give it back.
      try {
        linkSync(aside, file);
      } catch {
        // Someone holds the lock again already; the next round reads who.
      }
      unlinkSync(aside);
      continue;
    }
    unlinkSync(aside);
    warn(`Took over the data directory lock of PID ${holder.pid}, which is no longer running.`);
  }
  const holder = readHolder(file) ?? self;
  throw new DataDirectoryInUseError(directory, holder, setting);
}
