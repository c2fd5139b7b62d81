import { defineConfig } from 'drizzle-kit';

// Each table is declared in the tables.ts of the feature (or platform part) that owns it; the
// migrations of them all are one folder.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/features/*/*/tables.ts',
    './src/platform/*/tables.ts',
    './src/platform/database/columns.ts',
  ],
  out: './drizzle',
});
