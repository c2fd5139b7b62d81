import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServingProcess, serve } from './helpers/lectern-process.js';
import { runShellScript } from './helpers/shell-script.js';
import { temporaryDirectory, useProcessEnvironment } from './helpers/test-app.js';

// The README's Quickstart as a newcomer pastes it, against `npm start`'s build on a new data dir:
// the key and the address made this service's, everything else as written. Every answer must be
// a success (its DATA_GUID placeholders once answered `400 … must be a GUID`).

const processEnvironment = useProcessEnvironment();
const apiKey = 'lec_readme-quickstart-key';
const projectRoot = path.resolve(import.meta.dirname, '..');
let service: ServingProcess;
beforeAll(async () => {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...rest } = processEnvironment.values;
  service = await serve({ ...rest, LECTERN_DATA_DIR: temporaryDirectory(), LECTERN_INIT_API_KEY: apiKey });
});
afterAll(() => service?.stop());

/** The first shell block after the Quickstart heading. */
function quickstart(): string {
  const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quickstart\n');
  expect(start).toBeGreaterThan(-1);
  return /```sh\n([\s\S]*?)```/.exec(readme.slice(start))![1]!;
}

it("runs the README's Quickstart as written: every answer is a success", async () => {
  const script = quickstart()
    .replace(/^KEY=lec_\.\.\..*$/m, `KEY=${apiKey}`)
    .replaceAll('http://127.0.0.1:4000', service.baseUrl);
  const output = await runShellScript(`set -e\n${script}`, projectRoot);
  expect(output).not.toMatch(/"error"\s*:/);
  expect(output).toContain('"msg":"Say hello to Ada"');
  // The feedback went onto the sync run's generation, which answers with it.
  expect(output).toMatch(/"feedback":\[\{[^\]]*"value":"positive"/);
  expect(output).toContain('tool said: 42');
}, 120_000);
