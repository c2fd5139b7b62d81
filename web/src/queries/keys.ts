/**
 * Every query key of the console, from one place. Keys are paths from a resource down: invalidating
 * `keys.contexts.all` reloads the Contexts list, every picker that lists them and each Context's page,
 * so a change is never shown stale because two pages named the same data differently.
 */
export const keys = {
  session: ['session'] as const,
  apps: { all: ['apps'] as const },
  actions: {
    all: ['actions'] as const,
    page: (filter: Record<string, string | number>) => ['actions', 'page', filter] as const,
    one: (guid: string) => ['actions', 'one', guid] as const,
    versions: (guid: string) => ['actions', 'one', guid, 'versions'] as const,
  },
  contexts: {
    all: ['contexts'] as const,
    one: (guid: string) => ['contexts', 'one', guid] as const,
    documents: (guid: string) => ['contexts', 'one', guid, 'documents'] as const,
    sources: (guid: string) => ['contexts', 'one', guid, 'sources'] as const,
  },
  skills: { all: ['skills'] as const, types: ['skills', 'types'] as const },
  datasets: {
    all: ['datasets'] as const,
    one: (guid: string) => ['datasets', 'one', guid] as const,
    items: (guid: string, version: number, skip: number) =>
      ['datasets', 'one', guid, 'items', version, skip] as const,
  },
  evaluators: { all: ['evaluators'] as const },
  evaluations: {
    all: ['evaluations'] as const,
    one: (guid: string) => ['evaluations', 'one', guid] as const,
    results: (guid: string, query: string) => ['evaluations', 'one', guid, 'results', query] as const,
    compare: (base: string, candidate: string) => ['evaluations', 'compare', base, candidate] as const,
  },
  gates: {
    all: ['gates'] as const,
    check: (action: string, environment: string, version: number) =>
      ['gates', action, environment, version] as const,
  },
  monitors: { all: ['monitors'] as const },
  reviewQueues: {
    all: ['review-queues'] as const,
    one: (guid: string) => ['review-queues', 'one', guid] as const,
    report: (guid: string) => ['review-queues', 'one', guid, 'report'] as const,
    rules: (guid: string) => ['review-queues', 'one', guid, 'rules'] as const,
  },
  webhooks: {
    all: ['webhooks'] as const,
    deliveries: (guid: string) => ['webhooks', 'one', guid, 'deliveries'] as const,
  },
  workflows: {
    all: ['workflows'] as const,
    one: (guid: string) => ['workflows', 'one', guid] as const,
    blocks: (guid: string) => ['workflows', 'one', guid, 'blocks'] as const,
    run: (runGuid: string | null) => ['workflows', 'run', runGuid] as const,
  },
  experiments: {
    all: ['experiments'] as const,
    results: (guid: string) => ['experiments', 'one', guid, 'results'] as const,
  },
  generations: {
    all: ['generations'] as const,
    page: (filter: string, skip: number) => ['generations', 'page', filter, skip] as const,
    one: (guid: string) => ['generations', 'one', guid] as const,
  },
  traces: {
    all: ['traces'] as const,
    page: (query: string, skip: number) => ['traces', 'page', query, skip] as const,
    one: (traceId: string) => ['traces', 'one', traceId] as const,
  },
  sessions: {
    all: ['sessions'] as const,
    one: (guid: string) => ['sessions', 'one', guid] as const,
    turns: (guid: string) => ['sessions', 'one', guid, 'turns'] as const,
  },
  statistics: {
    all: ['statistics'] as const,
    span: (days: number) => ['statistics', days] as const,
  },
  providers: { all: ['providers'] as const, kinds: ['providers', 'kinds'] as const },
  models: { all: ['models'] as const },
  apiKeys: { all: ['api-keys'] as const },
  me: ['me'] as const,
  members: { all: ['members'] as const },
  folders: { all: ['folders'] as const },
  snippets: {
    all: ['snippets'] as const,
    one: (guid: string) => ['snippets', guid] as const,
    dependents: (guid: string) => ['snippets', guid, 'dependents'] as const,
  },
  invitations: { all: ['invitations'] as const },
  auditLog: { all: ['audit-log'] as const, filtered: (query: string) => ['audit-log', query] as const },
};
