export { processContextSourceJob } from './processing-job.js';
export { createContextSourceRepository } from './repository.js';
export { addFilesBody, sourceUrl } from './schemas.js';
export { type ContextSource, type ContextSourceService, createContextSourceService } from './service.js';
