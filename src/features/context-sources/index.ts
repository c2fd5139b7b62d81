export { createContextSourceRepository } from './repository.js';
export { addFilesBody, sourceUrl } from './schemas.js';
export { type ContextSourceService, createContextSourceService } from './service.js';
