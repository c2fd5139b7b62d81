import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { environment } from '../../authoring/actions/index.js';

const evaluatorList = z
  .array(guid)
  .min(1)
  .max(20)
  .refine((ids) => new Set(ids).size === ids.length, 'names an evaluator twice');

const sampleRate = z
  .number()
  .gt(0, 'must be above 0')
  .max(1)
  .describe('The share of generations scored: 0 < rate ≤ 1');

/** `POST /v1/monitors`: score a sampled share of an Action's production generations. */
export const createMonitorBody = z.strictObject({
  action: guid,
  evaluators: evaluatorList,
  sample_rate: sampleRate,
  environment: environment.optional().describe('Only generations run in this environment'),
});

/** The Action is fixed; the rest may change. `environment: null` scores every environment. */
export const changeMonitorBody = z.strictObject({
  evaluators: evaluatorList.optional(),
  sample_rate: sampleRate.optional(),
  environment: environment.nullable().optional(),
});

export type NewMonitor = z.infer<typeof createMonitorBody>;
export type MonitorChange = z.infer<typeof changeMonitorBody>;
