import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The nice value of bulk work (embedding Documents, splitting files): below the threads that answer
 * requests (0), so that on a busy machine the scheduler gives the database's and the request
 * thread's turns first. Lowering a priority needs no privilege, where raising one does: this is what
 * a service in an unprivileged container can do. At 10 a bulk thread still gets about a tenth of a
 * contended core, so bulk work slows down under load rather than stopping.
 */
export const bulkWorkNice = 10;

/**
 * Lowers the calling thread's priority to `bulkWorkNice` (Linux schedules each thread on its own,
 * so this is the worker thread's alone). Elsewhere, or where it is refused, the thread keeps the
 * normal priority: that is slower under load, never wrong.
 */
export function lowerThisThreadPriority(nice = bulkWorkNice): boolean {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * The same as source for a child process's script (it runs without this module): every thread of
 * the process at `bulkWorkNice`, and so every thread it makes later, which inherits its maker's.
 */
export const lowerProcessPrioritySource = `
try {
  const { readdirSync } = require('node:fs');
  const { setPriority } = require('node:os');
  for (const thread of readdirSync('/proc/self/task')) setPriority(Number(thread), ${bulkWorkNice});
} catch {}
`;
