// Lint: a package loaded on first use (`await import('pkg')`) is read the same way in the sources and
// in the bundle. Node gives a CommonJS package's exports both as named bindings and as `default`;
// esbuild's bundle gives only `default`. A named binding of a CommonJS package therefore works in
// every test of the sources and is undefined in `npm start` (the trace export once did nothing there).
// So a lazily imported CommonJS package is read through `default` alone.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const folders = ['src', 'packages/client/src'];

function* sourceFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry.name)) yield full;
  }
}

/** The nearest package.json above a resolved file. */
function packageOf(file) {
  for (let folder = path.dirname(file); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    try {
      return JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    } catch {
      // Not here: one folder up.
    }
  }
  return {};
}

/** Whether Node loads `specifier`, imported from `file`, as CommonJS. */
function isCommonJs(specifier, file) {
  const require = createRequire(file);
  let resolved;
  try {
    // `import` conditions first: a dual package's ES module build is what Node's import takes.
    resolved = import.meta.resolve(specifier, `file://${file}`).replace(/^file:\/\//, '');
  } catch {
    resolved = require.resolve(specifier);
  }
  if (resolved.endsWith('.cjs')) return true;
  if (resolved.endsWith('.mjs')) return false;
  return packageOf(resolved).type !== 'module';
}

// `import('pkg')` with a bare specifier (not `./`, not `node:`); `typeof import('pkg')` is a type, not a load.
const lazyImport = /(?<!typeof\s+)import\(\s*'((?![./]|node:)[^']+)'\s*\)/g;
const problems = [];
for (const folder of folders) {
  for (const file of sourceFiles(path.join(root, folder))) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(lazyImport)) {
      const specifier = match[1];
      if (!isCommonJs(specifier, file)) continue;
      const before = source.slice(Math.max(0, match.index - 80), match.index);
      const after = source.slice(match.index + match[0].length, match.index + match[0].length + 80);
      const throughDefault =
        /\{\s*default\s*:\s*\w+\s*\}\s*=\s*await\s*$/.test(before) ||
        /^\s*\)?\s*\.default\b/.test(after) ||
        /^\s*\.then\(\s*\(\s*\{\s*default\s*:\s*\w+\s*\}\s*\)/.test(after);
      if (!throughDefault) {
        const line = source.slice(0, match.index).split('\n').length;
        problems.push(
          `${path.relative(root, file)}:${line}: '${specifier}' is CommonJS: read it through \`default\` ` +
            '(named exports of a lazily imported CommonJS package are undefined in the bundle)',
        );
      }
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
