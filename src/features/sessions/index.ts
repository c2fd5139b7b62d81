export { createSessionRepository } from './repository.js';
export { createSessionService, type SessionService } from './service.js';
