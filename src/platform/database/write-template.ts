import path from 'node:path';
import { openDatabase } from './connection.js';
import { databaseTemplateDirectory, replaceDatabaseTemplate } from './template.js';

/**
 * Run by `npm run build`: creates and migrates an embedded database and keeps its data dir as the
 * template new embedded databases are copied from (template.ts).
 */
const template = databaseTemplateDirectory();
await replaceDatabaseTemplate(template, async (folder) => {
  const handle = await openDatabase({ dataDirectory: folder }, (message) => console.warn(message));
  await handle.close();
  return path.join(folder, 'pgdata');
});
console.log(`database template: ${template}`);
