export { createTraceRepository } from './repository.js';
export { createTraceService, type TraceService } from './service.js';
