import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AuthenticatedWorkspace, WorkspaceService } from '../workspaces/index.js';
import type { ConsoleSessionRepository } from './repository.js';

/** A signed-in request: its workspace, and whether the session's idle clock was just reset. */
export type SessionCheck = { workspace: AuthenticatedWorkspace; renewed: boolean };

export interface ConsoleSessionService {
  /**
   * Exchanges a workspace API key for a session. The token is returned once (for the cookie); only
   * its hash is stored, and the key is not kept at all. Undefined for an unknown or revoked key.
   */
  signIn(apiKey: string): Promise<{ token: string; workspace: AuthenticatedWorkspace } | undefined>;
  /** The workspace of a live session token: not signed out, used within the idle time, its key not revoked. */
  authenticate(token: string): Promise<SessionCheck | undefined>;
  signOut(token: string): Promise<void>;
  /** How long a session lasts without a request. */
  readonly idleMs: number;
}

/** The idle clock is written at most this often, not on every request. */
const renewEveryMs = 60_000;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function createConsoleSessionService(dependencies: {
  repository: ConsoleSessionRepository;
  workspaces: Pick<WorkspaceService, 'authenticate'>;
  idleMs: number;
  now?: () => Date;
}): ConsoleSessionService {
  const { repository, workspaces, idleMs } = dependencies;
  const now = dependencies.now ?? (() => new Date());

  return {
    idleMs,

    async signIn(apiKey) {
      const workspace = await workspaces.authenticate(apiKey);
      if (!workspace) return undefined;
      const token = `lcs_${randomBytes(32).toString('base64url')}`;
      await repository.insert({
        id: randomUUID(),
        workspaceId: workspace.id,
        apiKeyId: workspace.apiKeyId,
        tokenHash: hashOf(token),
        lastSeenAt: now(),
      });
      return { token, workspace };
    },

    async authenticate(token) {
      const at = now();
      const session = await repository.findLive(hashOf(token), new Date(at.getTime() - idleMs));
      if (!session) return undefined;
      const renewed = at.getTime() - session.lastSeenAt.getTime() >= renewEveryMs;
      if (renewed) await repository.touch(session.id, at);
      return { workspace: { ...session.workspace, apiKeyId: session.apiKeyId }, renewed };
    },

    async signOut(token) {
      await repository.revoke(hashOf(token), now());
    },
  };
}
