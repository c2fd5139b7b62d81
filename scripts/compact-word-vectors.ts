// Writes the offline word vectors' compact form (38 MB) into a directory, as a first start would into
// LECTERN_MODEL_CACHE_DIR: the container image's build makes it there, so the image can leave out
// the npm package's 300 MB JSON. Usage: tsx scripts/compact-word-vectors.ts DIRECTORY
import { existsSync } from 'node:fs';
import path from 'node:path';
import { wordVectorFiles } from '../src/retrieval/embedders/word-vector-embedder.js';
import { loadWordVectors } from '../src/retrieval/embedders/word-vectors.js';

const directory = process.argv[2];
if (!directory) {
  console.error('usage: tsx scripts/compact-word-vectors.ts DIRECTORY');
  process.exit(2);
}
const { sourcePath, cachePath } = wordVectorFiles(path.resolve(directory));
const vectors = loadWordVectors(sourcePath, cachePath);
if (!cachePath || !existsSync(cachePath)) {
  console.error(`could not write ${cachePath}`);
  process.exit(1);
}
console.log(`${cachePath}: ${vectors.rows.size} words, ${vectors.dimensions} dimensions`);
