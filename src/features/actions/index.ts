export { createAttachmentValidator } from './attachments.js';
export { presentAction, versionFromWire } from './presenters.js';
export { type ActionVersionRow as ActionVersion, createActionRepository } from './repository.js';
export { type DraftVersionInput, draftVersion, environment, guidOrSlugParams } from './schemas.js';
export {
  type Action,
  type ActionService,
  createActionService,
  type DeployGuard,
  type GateCondition,
  type ResolvedAction,
} from './service.js';
