import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createDeployedVersionRepository } from '../actions/index.js';
import { promptRoutes } from './routes.js';
import { createPromptService } from './service.js';

/** Prompts: what is deployed where, read and pushed to clients as deploys happen. */
export function createPromptsModule(parts: ModuleParts) {
  const { platform } = parts;
  const prompts = createPromptService({
    deployed: createDeployedVersionRepository(parts.database),
    broadcast: platform.broadcast,
    logger: parts.logger('prompts'),
  });
  return featureModule({
    services: { prompts },
    routes: { v1: [promptRoutes(prompts, parts.config.eventStreamsPerWorkspace)] },
  });
}

export type PromptsModule = ReturnType<typeof createPromptsModule>;
