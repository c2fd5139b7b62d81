import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DeclaredPort } from '../core/port.js';
import {
  type JobDefinition,
  type JobHandler,
  type JobRegistration,
  toRegistration,
} from '../platform/jobs/job-queue.js';

/**
 * Where a feature's routes are mounted: `v1` and `unversioned` behind workspace authentication and
 * the rate limit (`/v1/…`, and the hosted original's paths without it), `console` under
 * `/console/v1` (sign-in, links), `admin` under `/admin/v1` (the operator's token), `open` at the
 * root with no authentication (one-time stream URLs, signed file URLs).
 */
export type RouteMount = 'v1' | 'unversioned' | 'console' | 'admin' | 'open';

export type FeatureRoutes = Partial<Record<RouteMount, FastifyPluginAsyncZod[]>>;

/**
 * One feature, wired: its services (what routes, jobs, tests and the composition use), what it
 * shares with modules later in the list beyond its services (a repository's read, a builder), the
 * ports it declares for them to provide, its routes by mount, its job kinds with their handlers, and
 * what to stop when the process ends. `src/services.ts` lists the modules in wing order.
 */
export type FeatureModule = {
  services: object;
  shares?: object;
  ports?: Record<string, DeclaredPort>;
  routes?: FeatureRoutes;
  jobs?: JobRegistration[];
  close?: () => Promise<void>;
};

/** A module as its factory made it, checked against the shape and typed by what it holds. */
export function featureModule<Module extends FeatureModule>(module: Module): Module {
  return module;
}

/** A job kind and what runs it, paired so that a handler of another payload does not compile. */
export function handles<Payload, Name extends string>(
  definition: JobDefinition<Payload, Name>,
  handler: JobHandler<Payload>,
): JobRegistration {
  return toRegistration(definition, handler.process, handler.onFinalFailure);
}
