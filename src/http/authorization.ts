import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type AuditActor, type AuditEntry, actorOf } from '../core/audit-entry.js';
import { type Right, rights } from '../core/roles.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { TransactionScope } from '../platform/database/transaction-scope.js';

declare module 'fastify' {
  interface FastifySchema {
    /** The right a caller needs (src/core/roles.ts); every route of the API states one. */
    'x-right'?: Right;
    /**
     * Whether a successful call appends an audit record. By default every call that is not a read
     * and needs a configuring right (write, deploy, create_keys, manage, manage_owners, operator).
     * `in-handler`: the handler runs its write through `request.recordChange`, after work (a large
     * text's split) that must not hold the transaction open.
     */
    'x-audit'?: boolean | 'in-handler';
  }
}

// Authorization is declared, not coded: each route's schema names the right it needs (it is part
// of /openapi.json as `x-right`), one hook refuses a principal without it (403) before the route's
// handler or body validation runs, and the configuration changes are recorded in the audit log in
// the transaction that makes them (docs/security.md#people-and-roles).

/**
 * What authorization asks of the audit log: a record appended now, or the statement that appends it
 * as the last of the change's own transaction.
 */
export type AuditTrail = {
  append(entry: AuditEntry): Promise<void>;
  appendStatement(entry: AuditEntry): SQL;
};

const configuringRights: ReadonlySet<Right> = new Set([
  'write',
  'deploy',
  'create_keys',
  'manage',
  'manage_owners',
  'operator',
]);

const reads = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `/v1/actions/:guid/deploy` → `/v1/actions/{guid}/deploy`: the route template the log names. */
export function routeTemplate(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/\/+$/, '') || '/';
}

/** The kind of resource a route changes: its first path segment after the version, singular. */
export function resourceTypeOf(url: string): string {
  const segment = url.split('/').filter((part) => part && part !== 'admin' && !/^v\d+$/.test(part))[0] ?? '';
  return segment.endsWith('s') ? segment.slice(0, -1) : segment;
}

function methodsOf(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

function requireRight(right: Right) {
  return async (request: FastifyRequest) => {
    const principal = request.principal;
    if (!principal) throw new UnauthorizedError();
    if (!principal.rights.has(right))
      throw new ForbiddenError(
        `This needs the right to ${rights[right]}, which a ${principal.role} ${principal.type === 'key' ? 'key' : 'member'} does not have`,
      );
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** An audited route's answer, as its handler sent it (reply.send) rather than returned it. */
    auditedAnswer?: unknown;
    /** Settles when an audited route's transaction has committed (or failed). */
    auditCommit?: Promise<void>;
    /** Tells an audited route's transaction that the handler has sent its answer. */
    auditAnswered?: () => void;
    /**
     * On an `in-handler` audited route: runs the change and its audit record in one transaction;
     * the record names the work's result as the resource when the route has no GUID parameter.
     */
    recordChange?: <Result>(work: () => Promise<Result>) => Promise<Result>;
    /** What the audit record says changed, when the handler knows better than the request body. */
    auditChanges?: unknown;
  }
}

/**
 * Appends the audit record of a console event the route records itself (a sign-in, a failed one, a
 * sign-out, a single-use link used): the same action, status and request fields as a change's.
 */
export function recordConsoleEvent(
  audit: AuditTrail,
  request: FastifyRequest,
  event: {
    status: number;
    actor: AuditActor;
    workspaceId: string | null;
    resource: { type: string; id?: string };
  },
): Promise<void> {
  return audit.append({
    workspaceId: event.workspaceId,
    actor: event.actor,
    action: `${request.method} ${routeTemplate(request.routeOptions.url ?? request.url)}`,
    resource: { type: event.resource.type, id: event.resource.id },
    status: event.status,
    request: { id: request.id, ip: request.ip, userAgent: request.headers['user-agent'] },
  });
}

/** Says what an audited request changed (e.g. a version's before and after), instead of its body. */
export function describeChange(request: FastifyRequest, changes: unknown): void {
  request.auditChanges = changes;
}

const instanceAdmin: AuditActor = { type: 'admin', id: null, label: 'instance admin token' };

function guidOf(value: unknown): string | undefined {
  const guid = (value as { guid?: unknown } | undefined)?.guid;
  return typeof guid === 'string' ? guid : undefined;
}

/** The audit record of a change a request made; `result` is its answer (or the work's result). */
function changeRecord(
  request: FastifyRequest,
  reply: FastifyReply,
  url: string,
  result: unknown,
): AuditEntry {
  const params = (request.params ?? {}) as Record<string, string>;
  const resourceType = resourceTypeOf(url);
  // The route's own GUID (`/apps/{guid}`), else its first parameter (`/contexts/{contextGuid}/…`),
  // else what it made (the answer's `guid`).
  const resourceId = params.guid ?? Object.values(params)[0] ?? guidOf(result);
  const workspaceOfChange = resourceType === 'workspace' ? (params.guid ?? guidOf(result)) : undefined;
  return {
    workspaceId: request.workspace?.id ?? workspaceOfChange ?? null,
    actor: request.principal ? actorOf(request.principal) : instanceAdmin,
    action: `${request.method} ${routeTemplate(url)}`,
    resource: { type: resourceType, id: resourceId },
    status: reply.statusCode,
    request: { id: request.id, ip: request.ip, userAgent: request.headers['user-agent'] },
    changes:
      request.auditChanges ?? (request.body && typeof request.body === 'object' ? request.body : undefined),
  };
}

/** The change recorder of a request to an `in-handler` audited route. */
export function recordChangeOf(
  request: FastifyRequest,
): <Result>(work: () => Promise<Result>) => Promise<Result> {
  if (!request.recordChange)
    throw new Error(`${request.method} ${request.url} is not audited in its handler`);
  return request.recordChange;
}

/** Gives an `in-handler` audited route its `request.recordChange`. */
function auditedInHandler(route: RouteOptions, transactions: TransactionScope, audit: AuditTrail): void {
  route.onRequest = [
    ...[route.onRequest ?? []].flat(),
    async (request: FastifyRequest, reply: FastifyReply) => {
      request.recordChange = (work) =>
        transactions.run(work, (result) =>
          audit.appendStatement(changeRecord(request, reply, route.url, result)),
        );
    },
  ];
}

/**
 * Wraps an audited route's handler: the handler's queries and the audit record are one
 * transaction, and the answer leaves only once it has committed.
 *
 * A handler that sends its answer itself (`return reply.send(…)`) only settles once the answer has
 * been written (a Reply is a thenable), so the transaction cannot wait for it: the answer's onSend
 * says the handler is done, the record is appended and the transaction commits, and only then does
 * onSend let the answer go.
 */
function audited(route: RouteOptions, transactions: TransactionScope, audit: AuditTrail): void {
  const handler = route.handler;
  route.preSerialization = [
    ...[route.preSerialization ?? []].flat(),
    async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      request.auditedAnswer = payload;
      return payload;
    },
  ];
  route.onSend = [
    ...[route.onSend ?? []].flat(),
    async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      request.auditAnswered?.();
      await request.auditCommit;
      return payload;
    },
  ];
  route.handler = function auditedHandler(this: FastifyInstance, request, reply) {
    let handled!: Promise<unknown>;
    let handlerFailed = false;
    const work = transactions.run(
      () =>
        new Promise<unknown>((resolve, reject) => {
          request.auditAnswered = () => resolve(request.auditedAnswer);
          handled = Promise.resolve(handler.call(this, request, reply));
          handled.then(
            (value) => resolve(value === reply ? request.auditedAnswer : value),
            (error: unknown) => {
              handlerFailed = true;
              reject(error);
            },
          );
        }),
      (result) => audit.appendStatement(changeRecord(request, reply, route.url, result)),
    );
    // Only a failure to record or commit changes the answer; a handler's own error is answered as it is.
    const committed = work.then(
      () => undefined,
      (error: unknown) => {
        if (!handlerFailed) throw error;
      },
    );
    committed.catch(() => undefined);
    request.auditCommit = committed;
    // After the commit: a returned answer is then sent; a sent one settles once it is written.
    return work.then(() => handled);
  };
}

/**
 * Requires every route of the API (those with tags) to declare its right; adds the check, and the
 * audit record for configuration changes. Registered before the routes.
 */
export function registerAuthorization(
  app: FastifyInstance,
  { transactions, audit }: { transactions: TransactionScope; audit: AuditTrail },
): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    const ofTheApi = Array.isArray(schema?.tags) && schema.tags.length > 0;
    if (!schema || !ofTheApi) return;
    const right = schema['x-right'];
    if (!right || !(right in rights))
      throw new Error(`${route.method} ${route.url} declares no right (x-right)`);
    if (right !== 'public' && right !== 'operator')
      route.onRequest = [...[route.onRequest ?? []].flat(), requireRight(right)];
    const changes = methodsOf(route).some((method) => !reads.has(method));
    const audits = schema['x-audit'] ?? (changes && configuringRights.has(right));
    if (audits === 'in-handler') auditedInHandler(route, transactions, audit);
    else if (audits) audited(route, transactions, audit);
  });
}
