import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { createPlatform } from '../../src/platform/platform.js';
import { temporaryDirectory } from '../helpers/test-app.js';

// Finding 9: the embedded database, the instance secret and uploaded files are the service user's
// alone — the data directory 0700, everything in it without group or other bits — even when the
// shell's umask would have made them world-readable and world-writable.

function openToOthers(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if ((statSync(file).mode & 0o077) !== 0) found.push(file);
  }
  return found;
}

it('creates the data directory 0700 and every file in it for its owner only, whatever the umask', async () => {
  const previous = process.umask(0);
  const dataDirectory = path.join(temporaryDirectory(), 'data');
  try {
    const config = loadConfig({ LECTERN_DATA_DIR: dataDirectory, LOG_LEVEL: 'silent' });
    const platform = await createPlatform(config, createLogger(config));
    await platform.blobs.put('files/probe/1', Buffer.from('uploaded bytes'));
    await platform.close();
    expect(statSync(dataDirectory).mode & 0o777).toBe(0o700);
    const files = readdirSync(dataDirectory, { recursive: true });
    expect(files.length).toBeGreaterThan(100);
    expect(openToOthers(dataDirectory)).toEqual([]);
  } finally {
    process.umask(previous);
  }
}, 60_000);
