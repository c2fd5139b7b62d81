import { afterAll } from 'vitest';
import { removeTemporaryDirectories } from '../helpers/temporary-directory.js';

// Registered before the test file's own hooks, so it runs after them: the servers and processes that
// used the directories have stopped.
afterAll(removeTemporaryDirectories);
