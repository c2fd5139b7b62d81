import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../core/wire.js';
import { NotSupportedError } from '../../../errors.js';

/**
 * The official SDK's `fineTune` client (`/v1/finetune/...`): Lectern runs prompts against providers and
 * trains no models, so every method answers `501 not_supported` (docs/sdk-compatibility.md) instead of a 404 that
 * would read like a missing resource.
 */
export function fineTuneRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    const answer = async () => {
      throw new NotSupportedError('Fine-tuning');
    };
    for (const path of ['/finetune', '/finetune/*']) {
      app.all(
        path,
        {
          schema: { tags: ['fine-tuning'], 'x-right': 'read', hide: true, response: { 501: errorResponse } },
        },
        answer,
      );
    }
  };
}
