export { embedDocumentsJob } from './embedding-job.js';
export { presentAddedDocuments, presentDocument } from './presenters.js';
export { createDocumentRepository } from './repository.js';
export { contextParams, documentParams } from './schemas.js';
export {
  createDocumentSearchRepository,
  type DocumentSearchRepository,
  everyDocumentEmbedded,
} from './search-repository.js';
export { createDocumentService, type Document, type DocumentService } from './service.js';
