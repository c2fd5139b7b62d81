/**
 * The layering rules of docs/architecture.md, checked by `npm run lint`.
 * The features live in wings (src/features/<wing>/<feature>/) that depend one way, in the order of
 * `wings`; the top folders of src/ depend one way, in the order of `layers`. A feature talks to
 * another feature only through that feature's index.ts; each feature's module.ts wires it, and src/services.ts lists the modules.
 * Type-only imports count (tsPreCompilationDeps), since a type names the other side's shape as well.
 */

// Each wing may import the wings listed before it (and itself), never one after it.
const wings = [
  ['identity', []],
  ['models', ['identity']],
  ['knowledge', ['identity', 'models']],
  ['authoring', ['identity', 'models', 'knowledge']],
  ['runtime', ['identity', 'models', 'knowledge', 'authoring']],
  ['quality', ['identity', 'models', 'knowledge', 'authoring', 'runtime']],
  ['observability', ['identity', 'models', 'knowledge', 'authoring', 'runtime']],
  ['edges', ['identity', 'models', 'knowledge', 'authoring', 'runtime', 'quality', 'observability']],
];

const wingOrder = wings.map(([wing, below]) => ({
  name: `wing-order-${wing}`,
  comment: `The ${wing} wing imports only ${below.length ? below.join(', ') : 'no other wing'} (docs/architecture.md#wings).`,
  severity: 'error',
  from: { path: `^src/features/${wing}/` },
  to: {
    path: '^src/features/[^/]+/',
    pathNot: [`^src/features/(${[wing, ...below].join('|')})/`],
  },
}));

// The top of src/: each layer may import the layers before it, never one after it. The files at the
// top (app.ts, services.ts, jobs.ts, main.ts) assemble everything and sit above them all.
const layers = [
  ['core', []],
  ['config', ['core']],
  ['errors', ['core']],
  ['platform', ['core', 'config', 'errors']],
  ['llm', ['core', 'config', 'errors', 'platform']],
  ['retrieval', ['core', 'config', 'errors', 'platform', 'llm']],
  ['http', ['core', 'config', 'errors', 'platform']],
  ['features', ['core', 'config', 'errors', 'platform', 'llm', 'retrieval', 'http']],
  ['gateway', ['core', 'config', 'errors', 'platform', 'llm']],
  ['prompt-files', ['core', 'config', 'errors', 'platform', 'features']],
];
const layerPath = (layer) => `^src/${layer}(/|\\.ts$)`;
const layerOrder = layers.map(([layer, below]) => ({
  name: `layer-order-${layer}`,
  comment: `src/${layer} imports only ${below.join(', ') || 'itself'} of src/ (docs/architecture.md#layers).`,
  severity: 'error',
  from: { path: layerPath(layer) },
  to: { path: '^src/', pathNot: [layerPath(layer), ...below.map(layerPath)] },
}));

module.exports = {
  forbidden: [
    ...wingOrder,
    ...layerOrder,
    {
      name: 'feature-through-index',
      comment:
        "A feature reaches another feature only through that feature's index.ts, or its tables.ts for a statement that joins the other's table (only the owner writes it: scripts/check-table-writers.mjs).",
      severity: 'error',
      from: { path: '^src/features/[^/]+/([^/]+)/', pathNot: '^src/features/[^/]+/[^/]+/module\\.ts$' },
      to: {
        path: '^src/features/[^/]+/([^/]+)/',
        pathNot: ['^src/features/[^/]+/$1/', '^src/features/[^/]+/[^/]+/(index|responses|tables)\\.ts$'],
      },
    },
    {
      name: 'module-through-index',
      comment:
        "A feature's module.ts wires its own feature: of another feature it names only the module (the type of what it is handed) and the index.",
      severity: 'error',
      from: { path: '^src/features/[^/]+/([^/]+)/module\\.ts$' },
      to: {
        path: '^src/features/[^/]+/([^/]+)/',
        pathNot: ['^src/features/[^/]+/$1/', '^src/features/[^/]+/[^/]+/(index|responses|tables|module)\\.ts$'],
      },
    },
    {
      name: 'modules-only-from-the-list',
      comment:
        "A feature's module.ts is made by src/services.ts (the list) alone; other modules name it only as a type.",
      severity: 'error',
      from: { pathNot: ['^src/services\\.ts$', '^test/'] },
      to: { path: '^src/features/[^/]+/[^/]+/module\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'features-through-index',
      comment: "Code outside the features (wiring, HTTP, gateway) reaches a feature through its index.ts.",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/features/', '^src/services\\.ts$'] },
      to: {
        path: '^src/features/',
        pathNot: [
          '^src/features/[^/]+/[^/]+/(index|responses)\\.ts$',
          '^src/features/(feature-module|module-parts)\\.ts$',
        ],
      },
    },
    {
      name: 'the-list-through-modules',
      comment: 'src/services.ts lists the modules: of the features it imports only their module.ts and the module types.',
      severity: 'error',
      from: { path: '^src/services\\.ts$' },
      to: {
        path: '^src/features/',
        pathNot: ['^src/features/[^/]+/[^/]+/module\\.ts$', '^src/features/(feature-module|module-parts)\\.ts$'],
      },
    },
    {
      name: 'wire-schemas-stand-alone',
      comment:
        "A feature's responses.ts (and core/wire.ts) is the API's wire: zod and other wire schemas only, built from the one list of each field's values (core/wire-values.ts, core/roles.ts), so the console can read them without the server's code.",
      severity: 'error',
      from: { path: '(^src/features/[^/]+/[^/]+/responses\\.ts$|^src/core/wire\\.ts$)' },
      to: {
        path: '^src/',
        pathNot: '(^src/features/[^/]+/[^/]+/responses\\.ts$|^src/core/(wire|guid|wire-values|roles)\\.ts$)',
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
      name: 'routes-only-from-their-module',
      comment: "A feature's routes are mounted by its own module.ts (src/app.ts mounts the modules' routes); nothing else imports a routes file.",
      severity: 'error',
      from: { path: '^(src|web|packages)/', pathNot: '^src/features/[^/]+/[^/]+/module\\.ts$' },
      to: { path: '(^|/)[^/]*routes\\.ts$' },
    },
    {
      name: 'module-mounts-its-own-routes',
      comment: "A module mounts the routes of its own feature, never another feature's.",
      severity: 'error',
      from: { path: '^src/features/[^/]+/([^/]+)/module\\.ts$' },
      to: { path: '(^|/)[^/]*routes\\.ts$', pathNot: '^src/features/[^/]+/$1/' },
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
      comment:
        "A cycle means two modules are one; merge them or move what they share down a layer. Two features' tables of one wing may name each other in their foreign keys (a key's creator is a person, a person's membership names a workspace): those references are lazy, so the pair loads in either order.",
      severity: 'error',
      from: { pathNot: '^src/features/[^/]+/[^/]+/tables\\.ts$' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
