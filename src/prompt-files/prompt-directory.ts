import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileKind } from './state.js';

// Where each Action and snippet lives in the directory: `<folder>/<slug>.prompt` and
// `<folder>/<name>.snippet`, the folder being the one it is filed in on the service.

const extensions: Record<FileKind, string> = { action: '.prompt', snippet: '.snippet' };

/** One file of the directory: what it is, its name (slug or snippet name), folder and text. */
export type FoundFile = { kind: FileKind; name: string; folder: string; path: string; text: string };

export function relativePath(kind: FileKind, folder: string, name: string): string {
  return path.posix.join(folder, `${name}${extensions[kind]}`);
}

/** Every `.prompt` and `.snippet` file below the directory (not `.lectern/`), in a stable order. */
export function findFiles(directory: string): FoundFile[] {
  if (!existsSync(directory)) return [];
  const found: FoundFile[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(path.join(directory, folder), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(relative);
      for (const kind of ['action', 'snippet'] as const)
        if (entry.isFile() && entry.name.endsWith(extensions[kind]))
          found.push({
            kind,
            name: entry.name.slice(0, -extensions[kind].length),
            folder,
            path: relative,
            text: readFileSync(path.join(directory, relative), 'utf8'),
          });
    }
  };
  visit('');
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}
