import path from 'node:path';

/**
 * One cache of offline models' compact form for every test app and process of a run (and later
 * runs): each app's data directory is new, and converting the word vectors costs ~4 s each time.
 */
export const testModelCacheDirectory = path.resolve(
  import.meta.dirname,
  '../../node_modules/.cache/lectern-test-models',
);
