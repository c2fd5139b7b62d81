import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The data directory holds the embedded database, the instance secret and uploaded files: only the
 * service's own user may enter it (0700), and what the process creates is its own alone (umask 077,
 * so files are 0600 and directories 0700 whatever the shell's umask was). An existing directory made
 * by an older release is tightened too.
 */
export function prepareDataDirectory(dataDirectory: string): void {
  process.umask(0o077);
  mkdirSync(dataDirectory, { recursive: true, mode: 0o700 });
  chmodSync(dataDirectory, 0o700);
}

/**
 * Takes group and other bits off everything under `directory`. PGlite's file system layer sets the
 * modes PostgreSQL asks for inside WASM (0666 files) explicitly, past the umask; the 0700 directory
 * above already shuts others out, and this makes the files say so too (at open and at close).
 */
export function restrictToOwner(directory: string): void {
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(file, 0o700);
    else if (entry.isFile()) chmodSync(file, 0o600);
  }
}
