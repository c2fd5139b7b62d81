export { createMonitorRepository } from './repository.js';
export { createMonitorService, type MonitorService } from './service.js';
export { createSweepRunner, defaultSweepPace, monitorSweepJob, type SweepPace } from './sweep-job.js';
