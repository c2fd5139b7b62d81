import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { TooManyRequestsError, UnauthorizedError } from '../../../errors.js';
import type { AttemptCounter } from '../../../platform/attempt-counter.js';
import type { SignedRequest, WorkspaceService } from '../workspaces/index.js';
import type { ConsoleSessionRepository, LiveSession, SessionHolder } from './repository.js';

/** A signed-in request: its workspace and principal, and whether the session's idle clock was just reset. */
export type SessionCheck = SignedRequest & { renewed: boolean };

/** A new session: the token for the cookie (returned once; only its hash is stored). */
export type NewSession = SignedRequest & { token: string };

export interface ConsoleSessionService {
  /**
   * Exchanges a workspace API key for a session. The key is not kept at all. Undefined for an
   * unknown or revoked key. Attempts are limited per client address and per key (429 beyond).
   */
  signIn(apiKey: string, address: string): Promise<NewSession | undefined>;
  /** A session for a person who proved who they are (a password, the OpenID provider, an invitation). */
  signInPerson(personId: string, workspaceId: string): Promise<NewSession>;
  /**
   * The workspace and principal of a live session token: not signed out, used within the idle time,
   * begun within the absolute lifetime, its key live or its person still an active member.
   */
  authenticate(token: string): Promise<SessionCheck | undefined>;
  /** Moves a person's session to another of their workspaces; undefined when they are not a member. */
  switchWorkspace(token: string, workspaceId: string): Promise<SignedRequest | undefined>;
  signOut(token: string): Promise<void>;
  /** Ends every session of the same key or person as this one's; how many ended (0: not signed in). */
  signOutEverywhere(token: string): Promise<number>;
  /**
   * Ends a person's sessions for good: in one workspace or all, but the one of `exceptToken` (the
   * browser that changed its own password stays signed in).
   */
  endSessionsOf(personId: string, scope: { workspaceId?: string; exceptToken?: string }): Promise<void>;
  /** How long a session lasts without a request. */
  readonly idleMs: number;
}

export type ConsoleSessionLimits = {
  /** How long a session lasts without a request. */
  idleMs: number;
  /** How long a session lasts at most, however busy. */
  maximumMs: number;
  /** Live sessions per API key; a new sign-in ends the oldest beyond it. */
  perKey: number;
  /** Sign-in attempts a minute per client address and per API key. */
  signInsPerMinute: number;
};

/** The idle clock is written at most this often, not on every request. */
const renewEveryMs = 60_000;
/** Ended sessions are deleted at most this often, a batch at a time, by the sign-ins that make them. */
const sweepEveryMs = 60_000;
const sweepBatch = 5_000;
const signInWindowMs = 60_000;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function createConsoleSessionService(dependencies: {
  repository: ConsoleSessionRepository;
  workspaces: Pick<WorkspaceService, 'authenticate' | 'authenticateKeyId'>;
  /** A person's principal in a workspace, while they are an active member of it. */
  members: { principalOf(workspaceId: string, personId: string): Promise<SignedRequest | undefined> };
  attempts: AttemptCounter;
  limits: ConsoleSessionLimits;
  logger: Logger;
  now?: () => Date;
}): ConsoleSessionService {
  const { repository, workspaces, members, attempts, limits, logger } = dependencies;
  const now = dependencies.now ?? (() => new Date());
  let lastSweep = 0;

  /** Both of an attempt's counts: its address's and its key's (by hash: the key is never a Redis key). */
  async function throttle(apiKey: string, address: string): Promise<void> {
    const counts = await Promise.all([
      attempts.count(`console-sign-in:address:${address}`, signInWindowMs),
      attempts.count(`console-sign-in:key:${hashOf(apiKey)}`, signInWindowMs),
    ]);
    const over = counts.filter((count) => count.attempts > limits.signInsPerMinute);
    if (over.length === 0) return;
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil(Math.max(...over.map((count) => count.resetInMs)) / 1000),
    );
    throw new TooManyRequestsError(
      'too_many_sign_ins',
      `Too many sign-in attempts: at most ${limits.signInsPerMinute} a minute from one address or with one key; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }

  /** Deletes sessions that can never be used again (the table grows with sign-ins only, so they sweep). */
  function sweepSoon(at: Date): void {
    if (at.getTime() - lastSweep < sweepEveryMs) return;
    lastSweep = at.getTime();
    const activeSince = new Date(at.getTime() - limits.idleMs);
    const begunSince = new Date(at.getTime() - limits.maximumMs);
    repository
      .deleteEnded(activeSince, begunSince, sweepBatch)
      .catch((error: unknown) => logger.warn({ err: error }, 'console session sweep failed'));
  }

  async function findLive(token: string, at: Date) {
    return repository.findLive(
      hashOf(token),
      new Date(at.getTime() - limits.idleMs),
      new Date(at.getTime() - limits.maximumMs),
    );
  }

  async function open(holder: SessionHolder, workspaceId: string): Promise<string> {
    const token = `lcs_${randomBytes(32).toString('base64url')}`;
    const at = now();
    await repository.insert({
      id: randomUUID(),
      workspaceId,
      apiKeyId: 'apiKeyId' in holder ? holder.apiKeyId : null,
      userId: 'personId' in holder ? holder.personId : null,
      tokenHash: hashOf(token),
      lastSeenAt: at,
      createdAt: at,
    });
    await repository.revokeBeyond(holder, limits.perKey, at);
    sweepSoon(at);
    return token;
  }

  /** Who a session is now: its key's or its person's standing is asked afresh on every request. */
  function signedAs(session: LiveSession): Promise<SignedRequest | undefined> {
    if (session.apiKeyId) return workspaces.authenticateKeyId(session.apiKeyId);
    return members.principalOf(session.workspaceId, session.userId!);
  }

  const holderOf = (session: LiveSession): SessionHolder =>
    session.apiKeyId ? { apiKeyId: session.apiKeyId } : { personId: session.userId! };

  return {
    idleMs: limits.idleMs,

    async signIn(apiKey, address) {
      await throttle(apiKey, address);
      const signed = await workspaces.authenticate(apiKey);
      if (!signed) return undefined;
      const token = await open({ apiKeyId: signed.principal.key!.id }, signed.workspace.id);
      return { ...signed, token };
    },

    async signInPerson(personId, workspaceId) {
      const signed = await members.principalOf(workspaceId, personId);
      if (!signed) throw new UnauthorizedError('Not a member of this workspace');
      const token = await open({ personId }, workspaceId);
      return { ...signed, token };
    },

    async authenticate(token) {
      const at = now();
      const session = await findLive(token, at);
      if (!session) return undefined;
      const signed = await signedAs(session);
      if (!signed) return undefined;
      const renewed = at.getTime() - session.lastSeenAt.getTime() >= renewEveryMs;
      if (renewed) await repository.touch(session.id, at);
      return { ...signed, renewed };
    },

    async switchWorkspace(token, workspaceId) {
      const session = await findLive(token, now());
      if (!session?.userId) return undefined;
      const signed = await members.principalOf(workspaceId, session.userId);
      if (!signed) return undefined;
      await repository.moveToWorkspace(session.id, workspaceId);
      return signed;
    },

    async signOut(token) {
      await repository.revoke(hashOf(token), now());
    },

    async endSessionsOf(personId, { workspaceId, exceptToken }) {
      const exceptHash = exceptToken === undefined ? undefined : hashOf(exceptToken);
      await repository.revokeOfPerson(personId, { workspaceId, exceptHash }, now());
    },

    async signOutEverywhere(token) {
      const at = now();
      const session = await findLive(token, at);
      if (!session) return 0;
      return repository.revokeAllOf(holderOf(session), at);
    },
  };
}
