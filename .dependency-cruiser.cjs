/**
 * The layering rules of docs/architecture.md, checked by `npm run lint`.
 * A feature talks to another feature only through that feature's index.ts; routes are registered by
 * app.ts alone; the llm and retrieval layers know nothing of HTTP, features or the table schema.
 */
module.exports = {
  forbidden: [
    {
      name: 'feature-through-index',
      comment: "A feature reaches another feature only through that feature's index.ts.",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: {
        path: '^src/features/([^/]+)/',
        pathNot: ['^src/features/$1/', '^src/features/[^/]+/(index|responses)\\.ts$'],
      },
    },
    {
      name: 'features-through-index',
      comment: "Code outside the features (wiring, HTTP, gateway) reaches a feature through its index.ts.",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/features/', '^src/app\\.ts$'] },
      to: { path: '^src/features/[^/]+/', pathNot: '^src/features/[^/]+/(index|responses)\\.ts$' },
    },
    {
      name: 'wire-schemas-stand-alone',
      comment:
        "A feature's responses.ts (and core/wire.ts) is the API's wire: zod and other wire schemas only, built from the one list of each field's values (core/wire-values.ts, core/roles.ts), so the console can read them without the server's code.",
      severity: 'error',
      from: { path: '(^src/features/[^/]+/responses\\.ts$|^src/core/wire\\.ts$)' },
      to: {
        path: '^src/',
        pathNot: '(^src/features/[^/]+/responses\\.ts$|^src/core/(wire|guid|wire-values|roles)\\.ts$)',
      },
    },
    {
      name: 'contract-is-the-wire',
      comment:
        "src/contract.ts hands the console the wire's value lists (roles, statuses, evaluator types); it reads the wire's own modules only.",
      severity: 'error',
      from: { path: '^src/contract\\.ts$' },
      to: { path: '^src/', pathNot: '^src/core/(wire-values|roles)\\.ts$' },
    },
    {
      name: 'console-reads-the-contract-only',
      comment:
        "The console (web/src) knows the server's value lists through src/contract.ts alone, and imports no other part of src/.",
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^src/', pathNot: '^src/contract\\.ts$' },
    },
    {
      name: 'console-calls-through-the-route-map',
      comment:
        "The console calls the API through the client's generated route map (api/api-types.ts, its types only) and the request helpers beside it (api/typed-request.ts, transport/http.ts): nothing else of the client.",
      severity: 'error',
      from: { path: '^web/src/' },
      to: {
        path: '^packages/',
        pathNot: '^packages/client/src/(api/(api-types|typed-request)|transport/http)\\.ts$',
      },
    },
    {
      name: 'routes-only-from-app',
      comment: 'Only src/app.ts registers routes; nothing else imports a routes file.',
      severity: 'error',
      from: { pathNot: ['^src/app\\.ts$', '^test/'] },
      to: { path: '(^|/)[^/]*routes\\.ts$' },
    },
    {
      name: 'engines-below-http-and-features',
      comment: 'llm/ and retrieval/ are used by features; they do not use HTTP, features or the schema.',
      severity: 'error',
      from: { path: '^src/(llm|retrieval)/' },
      to: { path: ['^src/http/', '^src/features/', '^src/platform/database/schema\\.ts$'] },
    },
    {
      name: 'core-stands-alone',
      comment: 'core/ holds what every layer shares, so it imports no other part of src/.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'packages-stand-alone',
      comment:
        "The packages (the client, the template rules) ship without the service: they import no file of src/, web/ or another package's internals.",
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^(src|web)/|^packages/', pathNot: ['^packages/$1/', '^packages/prompt-templates/src/index\\.ts$'] },
    },
    {
      name: 'client-klu-through-its-entry',
      comment: "The client's own parts never import the Klu-compatible layer; it sits on top of them.",
      severity: 'error',
      from: { path: '^packages/client/src/(transport|streams|api|prompts)/' },
      to: { path: '^packages/client/src/klu/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle means two modules are one; merge them or move what they share down a layer.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-cycle-between-layers',
      comment:
        "The top folders of src/ (core, platform, llm, retrieval, http, gateway, prompt-files) depend one way, type-only imports included: a cycle between two of them means one holds the other's part. Folder scope names a dependency by the deepest folder it reaches, so a cycle through one feature's folder (http and features/workspaces today) is not seen here yet.",
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+/?$' },
      to: { path: '^src/[^/]+/?$', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
