import { configDefaults, defineConfig } from 'vitest/config';

// test/scale starts several `lectern serve` processes on one database: that needs PostgreSQL and
// Redis (CI's second pass). Without them the files are not collected at all.
const scaleOut = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
// test/containers checks the container image that LECTERN_TEST_IMAGE names (CI's container pass).
const containerImage = Boolean(process.env.LECTERN_TEST_IMAGE);
// test/compose checks compose.yaml started as a user starts it, behind LECTERN_TEST_COMPOSE_URL (ditto).
const composeProxy = Boolean(process.env.LECTERN_TEST_COMPOSE_URL);

export default defineConfig({
  // Tests import the client's source (the packed package is tested from its tarball).
  resolve: {
    alias: [
      {
        find: /^@lectern\/client\/klu$/,
        replacement: new URL('packages/client/src/klu/index.ts', import.meta.url).pathname,
      },
      {
        find: /^@lectern\/client$/,
        replacement: new URL('packages/client/src/index.ts', import.meta.url).pathname,
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(scaleOut ? [] : ['test/scale/**']),
      ...(containerImage ? [] : ['test/containers/**']),
      ...(composeProxy ? [] : ['test/compose/**']),
    ],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup/temporary-directories.ts'],
    pool: 'forks',
    // Two cores: one PGlite per worker is the heavy part, so two workers use the machine fully.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
