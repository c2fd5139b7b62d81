import { z } from 'zod';
import { guid } from '../../../core/guid.js';

export const uploadBody = z.strictObject({
  data: z.string().min(1).describe('Base64, or a full data URL (`data:<type>;base64,<data>`).'),
});

export const fileParams = z.object({ guid });
export const fileQuery = z.object({ token: z.string().max(200) });
