export { createDocumentRepository } from './repository.js';
export { contextParams, documentParams } from './schemas.js';
export { createDocumentService, type DocumentService } from './service.js';
