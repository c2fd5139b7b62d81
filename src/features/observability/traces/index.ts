export { createExportDecoder, type ExportDecoder } from './export-decoder.js';
export { createTraceRepository } from './repository.js';
export { createTraceService, type TraceService } from './service.js';
