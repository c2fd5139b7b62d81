import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertBlobKey, type BlobStore } from './blob-store.js';

export function createFileBlobStore(directory: string): BlobStore {
  const fileOf = (key: string) => {
    assertBlobKey(key);
    return path.join(directory, key);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a reader never sees half a file.
      const temporary = `${file}.${randomUUID()}.partial`;
      await writeFile(temporary, data);
      await rename(temporary, file);
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
