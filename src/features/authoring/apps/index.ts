export { presentApp } from './presenters.js';
export { createAppRepository } from './repository.js';
export { type App, type AppService, createAppService } from './service.js';
