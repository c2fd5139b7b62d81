import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type DataDirectoryLock, lockDataDirectory } from '../data-directory-lock.js';
import { type EmbeddedClient, startEmbeddedClient } from './embedded-client.js';
import { copyDatabaseTemplate, databaseTemplateDirectory } from './template.js';

/** Where an embedded database lives (connection.ts's DatabaseLocation without a URL). */
export type EmbeddedLocation = {
  dataDirectory: string | 'memory';
  snapshot?: Blob;
  /** The embedded PostgreSQL's buffer cache (`shared_buffers`, e.g. `32MB`); PGlite's own default otherwise. */
  sharedBuffers?: string;
  /** The data dir a new database is copied from (template.ts); the build's by default. */
  template?: string;
};

/** PGlite open in its thread, before the extensions, the settings and the migrations (connection.ts). */
export type StartedEmbeddedDatabase = {
  client: EmbeddedClient;
  dataDir?: string;
  lock?: DataDirectoryLock;
};

/**
 * Locks the data directory and opens PGlite in its own thread. It imports nothing of the service, so
 * `lectern serve` starts it first: the thread opens the database (~0.5 s of WASM) on another core while
 * the main thread loads the service's modules, instead of after them.
 */
export async function startEmbeddedDatabase(
  { dataDirectory, snapshot, sharedBuffers, template }: EmbeddedLocation,
  warn: (message: string) => void,
): Promise<StartedEmbeddedDatabase> {
  let dataDir: string | undefined;
  let lock: DataDirectoryLock | undefined;
  if (dataDirectory !== 'memory') {
    mkdirSync(dataDirectory, { recursive: true });
    // Before anything touches the files: a second process on one data dir corrupts the database.
    lock = lockDataDirectory(dataDirectory, warn);
    dataDir = path.join(dataDirectory, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
  }
  try {
    const snapshotBytes = snapshot && (await snapshot.arrayBuffer());
    const create = () =>
      startEmbeddedClient(
        { dataDir, snapshot: snapshotBytes, sharedBuffers },
        // Nothing can be stored any more: say so loudly; /readyz reports the database as failing.
        {
          onStopped: (error) =>
            warn(`${error.message}: the service cannot store anything until it is restarted`),
        },
      );
    const fromTemplate =
      !snapshot &&
      dataDir !== undefined &&
      !existsSync(path.join(dataDir, 'PG_VERSION')) &&
      copyDatabaseTemplate(dataDir, template ?? databaseTemplateDirectory());
    try {
      return { client: await create(), dataDir, lock };
    } catch (error) {
      if (!fromTemplate || !dataDir) throw error;
      // A template that does not open (a damaged build) costs this first start initdb, nothing more.
      warn(
        `The database template did not open (${(error as Error).message}); creating the database instead.`,
      );
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir, { recursive: true });
      return { client: await create(), dataDir, lock };
    }
  } catch (error) {
    lock?.release();
    throw error;
  }
}
