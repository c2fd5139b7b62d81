import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../helpers/test-app.js';

// The client as a user installs it: `npm pack` of packages/client (built by `npm run build`),
// unpacked into a project of its own, then imported as an ES module and required as CommonJS.
const root = path.resolve(import.meta.dirname, '../..');

describe('the packed @lectern/client', () => {
  it('installs from its tarball and loads from ESM and CommonJS, the Klu entry included', () => {
    const project = temporaryDirectory();
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', project], {
      cwd: path.join(root, 'packages/client'),
      encoding: 'utf8',
    }).trim();
    const installed = path.join(project, 'node_modules/@lectern/client');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(project, packed), '-C', installed, '--strip-components=1']);
    // Its one dependency, as npm would install it.
    symlinkSync(path.join(root, 'node_modules/liquidjs'), path.join(project, 'node_modules/liquidjs'));

    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    expect(existsSync(path.join(installed, 'dist/types/index.d.ts'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist/types/klu/index.d.ts'))).toBe(true);
    // The template rules are bundled in: no file of the package may import their unpublished package.
    const files = readdirSync(path.join(installed, 'dist'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(c?js|d\.ts)$/.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name));
    expect(
      files.filter((file) => readFileSync(file, 'utf8').includes("'@lectern/prompt-templates'")),
    ).toEqual([]);

    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { Lectern, NotFoundError } from '@lectern/client';
         import Klu, { InstanceNotFoundError } from '@lectern/client/klu';
         const klu = new Klu('key', { baseUrl: 'http://127.0.0.1:1' });
         console.log(typeof new Lectern().request, typeof klu.actions.stream, InstanceNotFoundError === NotFoundError);`,
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(esm.trim()).toBe('function function true');
    const commonJs = execFileSync(
      process.execPath,
      [
        '-e',
        `const { Lectern, NotFoundError } = require('@lectern/client');
         const klu = require('@lectern/client/klu');
         console.log(typeof Lectern, klu.default === klu.Klu, klu.InstanceNotFoundError === NotFoundError);`,
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(commonJs.trim()).toBe('function true true');
  });
});
