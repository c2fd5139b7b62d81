// Roles and rights (docs/security.md#people-and-roles). A route states the one right it needs; a
// principal holds the rights of its role. Kept free of any framework: the wire, the HTTP layer and
// the services all read it.

/**
 * A person's role in a workspace, lowest first: each holds every right of the ones before it. A
 * `reviewer` sees only the review queues that name them (docs/review.md); no key has that role.
 */
export const memberRoles = ['reviewer', 'viewer', 'developer', 'admin', 'owner'] as const;
export type MemberRole = (typeof memberRoles)[number];

/** An API key's role: `runner` is for applications (run, feedback, read what it ran). */
export const keyRoles = ['runner', 'viewer', 'developer', 'admin'] as const;
export type KeyRole = (typeof keyRoles)[number];

/** Every role a principal may hold, a key's or a person's, lowest first. */
export const roles = ['runner', ...memberRoles] as const;
export type Role = (typeof roles)[number];

export type { AuditActorType } from './wire-values.js';

/**
 * What a route may need. `public` routes authenticate themselves (sign-in, signed and one-time URLs,
 * health) and `operator` ones take the instance admin token; every other right is a role's.
 */
export const rights = {
  public: 'no workspace credentials: the route authenticates itself',
  operator: 'the instance admin token',
  self: 'see and change one’s own profile and password, and one’s workspaces',
  read: 'read the workspace (never a secret)',
  read_runs: 'read an Action, a generation, a session or a result by its GUID (what running needs and makes)',
  search: 'search Contexts',
  feedback: 'record feedback',
  run: 'run Actions, Workflows and Experiments, use sessions, log generations, search Contexts',
  write: 'create and change Actions, Apps, Contexts, Skills, Workflows, Experiments and files',
  deploy: 'deploy Action versions',
  create_keys: 'create API keys up to its own role, list and revoke its own',
  manage: 'manage providers, every API key, members below owner and workspace settings',
  audit: 'read the audit log',
  manage_owners: 'make, demote and remove owners',
  review: 'lease and review the items of the review queues that admit them',
} as const;
export type Right = keyof typeof rights;

/** The rights a role adds to those of the roles below it. */
const added: Record<Role, readonly Right[]> = {
  runner: ['self', 'read_runs', 'search', 'feedback', 'run'],
  reviewer: ['self', 'review'],
  viewer: ['read', 'read_runs', 'search', 'feedback'],
  developer: ['run', 'write', 'deploy', 'create_keys'],
  admin: ['manage', 'audit'],
  owner: ['manage_owners'],
};

const below: Record<Role, Role[]> = {
  runner: [],
  reviewer: [],
  viewer: ['reviewer'],
  developer: ['viewer', 'reviewer', 'runner'],
  admin: ['developer', 'viewer', 'reviewer', 'runner'],
  owner: ['admin', 'developer', 'viewer', 'reviewer', 'runner'],
};

const rightsByRole = Object.fromEntries(
  (Object.keys(added) as Role[]).map((role) => [
    role,
    new Set<Right>([...added[role], ...below[role].flatMap((lower) => added[lower])]),
  ]),
) as unknown as Record<Role, ReadonlySet<Right>>;

export function rightsOf(role: Role): ReadonlySet<Right> {
  return rightsByRole[role];
}

/**
 * The rights of a key: its role's, but never more than its creator's current role grants (a
 * demoted person's keys are demoted with them).
 */
export function keyRights(keyRole: KeyRole, creatorRole: MemberRole | undefined): ReadonlySet<Right> {
  const own = rightsOf(keyRole);
  if (creatorRole === undefined) return own;
  const creator = rightsOf(creatorRole);
  return new Set([...own].filter((right) => creator.has(right)));
}

/** Whether `role` may hand out (to a key or an invitee) the role `given`. */
export function mayGrant(role: Role, given: Role): boolean {
  return role === given || below[role].includes(given);
}

/** Roles ordered for "at least": runner and viewer are both below developer, a reviewer below both. */
export function roleRank(role: Role): number {
  return { reviewer: -1, runner: 0, viewer: 0, developer: 1, admin: 2, owner: 3 }[role];
}

/**
 * Who is asking: a person (signed in to the console) or an API key, with the role and rights they
 * hold in the request's workspace. A key made by a person names them as its `person` (the key's creator).
 */
export type Principal = {
  type: 'person' | 'key';
  role: Role;
  rights: ReadonlySet<Right>;
  person: { id: string; email: string; name: string } | undefined;
  key: { id: string; prefix: string; name: string } | undefined;
};

/** The GUID recorded as a record's creator: the person's, else the creator-less key's. */
export function creatorIdOf(principal: Principal): string {
  return principal.person?.id ?? principal.key!.id;
}
