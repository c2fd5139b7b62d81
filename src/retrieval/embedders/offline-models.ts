import { sentenceEncoderModel } from './offline-embedder.js';

/**
 * The model of a Context that names none. Contexts store their model, so changing this moves none.
 * The sentence encoder stays the default: beside BM25 it ranks better than the word vectors (SciFact,
 * docs/performance.md), which embed ~600× faster and are the choice when indexing speed matters more.
 */
export const defaultEmbeddingModel = sentenceEncoderModel;
