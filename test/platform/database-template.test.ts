import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../src/platform/database/connection.js';
import { replaceDatabaseTemplate } from '../../src/platform/database/template.js';
import { temporaryDirectory } from '../helpers/test-app.js';

// A new embedded database is a copy of the template `npm run build` makes, not the product of
// initdb and every migration; these build their own templates to see which one a database came from.

const migrationCount = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../drizzle/meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  }
).entries.length;

const noTemplate = path.join(temporaryDirectory(), 'none');

async function hasMarker(dataDirectory: string, template: string): Promise<boolean> {
  const handle = await openDatabase({ dataDirectory, template }, () => undefined);
  try {
    const rows = rowsOf<{ found: string | null }>(
      await handle.database.execute(sql`SELECT to_regclass('template_marker')::text AS found`),
    );
    return rows[0]!.found !== null;
  } finally {
    await handle.close();
  }
}

describe('the embedded database template', () => {
  const template = path.join(temporaryDirectory(), 'template');

  beforeAll(async () => {
    await replaceDatabaseTemplate(template, async (folder) => {
      const handle = await openDatabase({ dataDirectory: folder, template: noTemplate }, () => undefined);
      await handle.database.execute(sql`CREATE TABLE template_marker (id int)`);
      await handle.close();
      return path.join(folder, 'pgdata');
    });
  }, 60_000);

  it('makes a new database a copy of it, migrated, and the data dir its owner’s alone', async () => {
    const dataDirectory = temporaryDirectory();
    expect(await hasMarker(dataDirectory, template)).toBe(true);
    expect(statSync(path.join(dataDirectory, 'pgdata')).mode & 0o777).toBe(0o700);
    const handle = await openDatabase({ dataDirectory, template }, () => undefined);
    const applied = rowsOf<{ count: number }>(
      await handle.database.execute(sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`),
    );
    await handle.close();
    expect(applied[0]!.count).toBe(migrationCount);
  }, 60_000);

  it('leaves an existing database as it is', async () => {
    const dataDirectory = temporaryDirectory();
    expect(await hasMarker(dataDirectory, noTemplate)).toBe(false);
    expect(await hasMarker(dataDirectory, template)).toBe(false);
  }, 60_000);

  it('creates the database with initdb when the template does not open, and says so', async () => {
    const damaged = path.join(temporaryDirectory(), 'damaged');
    await replaceDatabaseTemplate(damaged, async (folder) => {
      const dataDir = path.join(folder, 'pgdata');
      const handle = await openDatabase({ dataDirectory: folder, template: noTemplate }, () => undefined);
      await handle.close();
      writeFileSync(path.join(dataDir, 'PG_VERSION'), '9\n');
      return dataDir;
    });
    const warnings: string[] = [];
    const dataDirectory = temporaryDirectory();
    const handle = await openDatabase({ dataDirectory, template: damaged }, (message) =>
      warnings.push(message),
    );
    const workspaces = rowsOf<{ found: string | null }>(
      await handle.database.execute(sql`SELECT to_regclass('workspaces')::text AS found`),
    );
    await handle.close();
    expect(workspaces[0]!.found).toBe('workspaces');
    expect(warnings).toEqual([expect.stringContaining('The database template did not open')]);
  }, 60_000);
});
