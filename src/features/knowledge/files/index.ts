export { createFileRepository } from './repository.js';
export { createFileService, type FileService, signedUrlLifetimeMs } from './service.js';
