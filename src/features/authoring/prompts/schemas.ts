import { z } from 'zod';
import { environment } from '../actions/index.js';

export const promptQuery = z.strictObject({
  environment: environment.optional().describe('Default: the Action’s default environment'),
});
