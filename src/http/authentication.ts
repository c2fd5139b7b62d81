import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors.js';
import type { AuthenticatedWorkspace, WorkspaceService } from '../features/workspaces/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    workspace?: AuthenticatedWorkspace;
  }
}

/** The token of `Authorization: Bearer <token>`; no other scheme or header authenticates. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Adds workspace authentication to every route of the (encapsulated) instance it is called on. */
export function requireWorkspaceKey(app: FastifyInstance, workspaces: WorkspaceService): void {
  app.decorateRequest('workspace', undefined);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new UnauthorizedError('Missing Authorization: Bearer API key');
    const workspace = await workspaces.authenticate(token);
    if (!workspace) throw new UnauthorizedError('Invalid or revoked API key');
    request.workspace = workspace;
  });
}

/** The authenticated workspace of a request behind requireWorkspaceKey. */
export function workspaceOf(request: FastifyRequest): AuthenticatedWorkspace {
  if (!request.workspace) throw new UnauthorizedError();
  return request.workspace;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The instance admin token, compared in constant time. */
export function requireAdminToken(app: FastifyInstance, adminToken: string): void {
  const expected = digest(adminToken);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token || !timingSafeEqual(digest(token), expected))
      throw new UnauthorizedError('Missing or invalid admin token');
  });
}
