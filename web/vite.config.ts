import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The JavaScript a first visit downloads, gzipped: the console's budget, enforced by the build. */
const firstLoadBudgetBytes = 250 * 1024;

/**
 * Sums the entry chunk and the chunks it imports statically (lazy pages are not part of a first
 * load), prints the figure and fails the build past the budget.
 */
function firstLoadBudget(): Plugin {
  return {
    name: 'lectern-first-load-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const loaded = new Set<string>();
      const visit = (fileName: string) => {
        if (loaded.has(fileName)) return;
        loaded.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
      const bytes = [...loaded].reduce(
        (sum, fileName) => sum + gzipSync(byName.get(fileName)!.code).length,
        0,
      );
      const figure = `console first load: ${(bytes / 1024).toFixed(1)} KB of JavaScript gzipped (budget ${firstLoadBudgetBytes / 1024} KB)`;
      if (bytes > firstLoadBudgetBytes) this.error(figure);
      console.log(figure);
    },
  };
}

// The console builds into dist/web, which `lectern serve` serves at `/` (hashed assets under /assets).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), firstLoadBudget()],
  build: {
    outDir: path.resolve(import.meta.dirname, '../dist/web'),
    emptyOutDir: true,
    reportCompressedSize: true,
    // The template editor's lazy chunk (CodeMirror with Liquid, HTML, CSS and JavaScript modes, and
    // LiquidJS for live variables) is ~195 KB gzipped and loads only when an editor opens.
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npm run dev:web` next to `npm run dev`: the API on 4000, the console with hot reload on 5173.
    // The API accepts console requests from its own public origin only (LECTERN_BASE_URL), so the
    // proxy presents them as coming from there.
    proxy: Object.fromEntries(
      ['/v1', '/console/v1', '/api'].map((prefix) => [
        prefix,
        { target: 'http://127.0.0.1:4000', headers: { origin: 'http://127.0.0.1:4000' } },
      ]),
    ),
  },
});
