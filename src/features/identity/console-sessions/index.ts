export { presentSignIn } from './presenters.js';
export { createConsoleSessionRepository } from './repository.js';
export { type ConsoleSessionService, createConsoleSessionService, type SessionCheck } from './service.js';
