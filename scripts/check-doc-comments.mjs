// Lint: a doc comment (`/** … */`) describes the declaration right below it, so two in a row, or a
// doc comment followed by a line comment, means one of them sits on the wrong declaration (an editor
// shows only the nearest). Module-level notes are plain block comments (`/* … */`).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const folders = ['src', 'web/src'];

function* sourceFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry.name)) yield full;
  }
}

const problems = [];
for (const folder of folders) {
  for (const file of sourceFiles(path.join(root, folder))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (let line = 0; line < lines.length; line += 1) {
      if (!lines[line].trim().startsWith('/**')) continue;
      let end = line;
      while (end < lines.length && !lines[end].includes('*/')) end += 1;
      let next = end + 1;
      while (next < lines.length && lines[next].trim() === '') next += 1;
      const following = lines[next]?.trim() ?? '';
      // A lint suppression belongs to the declaration too.
      const lineComment = following.startsWith('//') && !following.startsWith('// biome-ignore');
      if (following.startsWith('/**') || lineComment) {
        problems.push(`${path.relative(root, file)}:${line + 1}: a doc comment followed by another comment`);
      }
      line = end;
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error('Each doc comment belongs to the declaration below it: merge them, or move one to its own.');
  process.exit(1);
}
