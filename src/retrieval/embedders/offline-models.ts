import { sentenceEncoderModel } from './offline-embedder.js';
import { wordVectorModel } from './word-vector-embedder.js';

/** The model of a Context that names none. Contexts store their model, so changing this moves none. */
export const defaultEmbeddingModel = wordVectorModel;

/** The models that run in the process, with no provider. */
export const offlineEmbeddingModels: readonly string[] = [wordVectorModel, sentenceEncoderModel];
