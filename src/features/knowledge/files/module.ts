import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createFileRepository } from './repository.js';
import { fileUploadRoutes, signedFileRoutes } from './routes.js';
import { createFileService } from './service.js';

/** Uploaded files, read back through signed URLs. */
export function createFilesModule(parts: ModuleParts) {
  const { platform, config } = parts;
  const files = createFileService({
    repository: createFileRepository(parts.database),
    blobs: platform.blobs,
    payloads: platform.payloads,
    signer: platform.signer,
    baseUrl: config.baseUrl,
    maximumBytes: config.fileLimitBytes,
  });
  return featureModule({
    services: { files },
    routes: { v1: [fileUploadRoutes(files)], open: [signedFileRoutes(files, config.fileLimitBytes)] },
  });
}

export type FilesModule = ReturnType<typeof createFilesModule>;
