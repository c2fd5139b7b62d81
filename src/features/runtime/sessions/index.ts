export { createSessionRepository } from './repository.js';
export { createSessionService, type Session, type SessionService } from './service.js';
