export { createAttachmentValidator } from './attachments.js';
export {
  createDeployedVersionRepository,
  type DeployedSelection,
  type DeployedVersion,
  type DeployedVersionRepository,
} from './deployed-repository.js';
export type { DeployGuard, DeploymentsChanged, GateCondition } from './neighbours.js';
export { presentAction, presentVersionFields, versionFromWire } from './presenters.js';
export { type ActionVersionRow as ActionVersion, createActionRepository } from './repository.js';
export { type DraftVersionInput, draftVersion, environment, guidOrSlugParams } from './schemas.js';
export {
  type Action,
  type ActionService,
  createActionService,
  type ResolvedAction,
} from './service.js';
export type { VersionChanges } from './version.js';
