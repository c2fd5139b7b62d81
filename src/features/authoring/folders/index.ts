export { createFolderRepository } from './repository.js';
export { createFolderService, type FolderService } from './service.js';
