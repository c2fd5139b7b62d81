export { createDocumentRepository } from './repository.js';
export { contextParams, documentParams } from './schemas.js';
export {
  createDocumentSearchRepository,
  type DocumentSearchRepository,
  everyDocumentEmbedded,
} from './search-repository.js';
export { createDocumentService, type DocumentService } from './service.js';
