import { PermanentError } from '../../errors.js';

/**
 * A file whose type cannot be indexed: no other attempt will read it. On its own so that the main
 * thread can name it without loading the loaders, which only the indexing worker runs.
 */
export class UnsupportedFileError extends PermanentError {}
