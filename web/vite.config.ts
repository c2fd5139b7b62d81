import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console builds into dist/web, which `lectern serve` serves at `/` (hashed assets under /assets).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, '../dist/web'),
    emptyOutDir: true,
    reportCompressedSize: true,
  },
  server: {
    // `npm run dev:web` next to `npm run dev`: the API on 4000, the console with hot reload on 5173.
    proxy: { '/v1': 'http://127.0.0.1:4000', '/console/v1': 'http://127.0.0.1:4000' },
  },
});
