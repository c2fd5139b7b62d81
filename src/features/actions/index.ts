export { createAttachmentValidator } from './attachments.js';
export { type ActionVersionRow as ActionVersion, createActionRepository } from './repository.js';
export { environment, guidOrSlugParams } from './schemas.js';
export { type ActionService, createActionService, type ResolvedAction } from './service.js';
