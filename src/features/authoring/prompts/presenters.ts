import { type DeployedVersion, presentVersionFields } from '../actions/index.js';
import type { DeployedPromptResponse } from './responses.js';

export function presentDeployedPrompt(deployed: DeployedVersion): DeployedPromptResponse {
  return {
    ...presentVersionFields(deployed.version),
    action: deployed.action.id,
    slug: deployed.action.slug,
    name: deployed.action.name,
    environment: deployed.environment,
    default_environment: deployed.action.defaultEnvironment,
    version: deployed.version.version,
    deployed_at: deployed.deployedAt.toISOString(),
  };
}
