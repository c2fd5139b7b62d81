import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';
import { versionFields } from '../actions/responses.js';

/** An Action's version as deployed to an environment: what a client caches and renders itself. */
export const deployedPromptResponse = versionFields
  .extend({
    action: guid,
    slug: z.string(),
    name: z.string(),
    environment: z.string(),
    default_environment: z.string(),
    version: z.number().int(),
    deployed_at: timestamp.describe('When this version was deployed to the environment'),
  })
  .meta({ id: 'DeployedPrompt' });

export const deployedPromptList = z.strictObject({
  data: z.array(deployedPromptResponse),
  environment: z.string().nullable().describe('The environment asked for; null: each Action’s default'),
});

export type DeployedPromptResponse = z.output<typeof deployedPromptResponse>;

/** `GET /v1/deployments/events`: an endless stream of Server-Sent Events. */
export const deploymentEventsResponse = {
  description:
    'Server-Sent Events: `ready` once subscribed; `deployment` (a DeployedPrompt) when a version is deployed; `removed` (`{ action, slug, environment }`) when an Action stops running there',
  content: { 'text/event-stream': { schema: z.unknown().describe('SSE frames') } },
};
