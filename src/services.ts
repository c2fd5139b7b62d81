import { assertProvided, type DeclaredPort } from './core/port.js';
import { createActionsModule } from './features/authoring/actions/module.js';
import { createAppsModule } from './features/authoring/apps/module.js';
import { createFoldersModule } from './features/authoring/folders/module.js';
import { createPromptsModule } from './features/authoring/prompts/module.js';
import { createSkillsModule } from './features/authoring/skills/module.js';
import { createSnippetsModule } from './features/authoring/snippets/module.js';
import { createAdminModule } from './features/edges/admin/module.js';
import { createFineTunesModule } from './features/edges/fine-tunes/module.js';
import { createMcpModule } from './features/edges/mcp/module.js';
import { createWebhooksModule } from './features/edges/webhooks/module.js';
import type { FeatureModule } from './features/feature-module.js';
import { createAuditModule } from './features/identity/audit/module.js';
import { createConsoleSessionsModule } from './features/identity/console-sessions/module.js';
import { createPeopleModule } from './features/identity/people/module.js';
import { createWorkspacesModule } from './features/identity/workspaces/module.js';
import { createContextSourcesModule } from './features/knowledge/context-sources/module.js';
import { createContextsModule } from './features/knowledge/contexts/module.js';
import { createDocumentsModule } from './features/knowledge/documents/module.js';
import { createFilesModule } from './features/knowledge/files/module.js';
import { createProvidersModule } from './features/models/providers/module.js';
import { createModuleParts } from './features/module-parts.js';
import { createTracesModule } from './features/observability/traces/module.js';
import { createDatasetsModule } from './features/quality/datasets/module.js';
import { createEvaluationsModule } from './features/quality/evaluations/module.js';
import { createEvaluatorsModule } from './features/quality/evaluators/module.js';
import { createMonitorsModule } from './features/quality/monitors/module.js';
import { createReleaseGatesModule } from './features/quality/release-gates/module.js';
import { createReviewQueuesModule } from './features/quality/review-queues/module.js';
import { createExperimentsModule } from './features/runtime/experiments/module.js';
import { createFeedbackModule } from './features/runtime/feedback/module.js';
import { createGenerationsModule } from './features/runtime/generations/module.js';
import { createRunsModule } from './features/runtime/runs/module.js';
import { createSessionsModule } from './features/runtime/sessions/module.js';
import { createWorkflowsModule } from './features/runtime/workflows/module.js';
import type { Platform } from './platform/platform.js';

/**
 * Every feature module, made once per process in wing order (docs/architecture.md#modules): each
 * gets the shared parts and the modules it uses, all made before it. A module that needs one made
 * after it declares a port; the later one provides it.
 */
export function createModules(platform: Platform) {
  const parts = createModuleParts(platform);
  const workspaces = createWorkspacesModule(parts);
  const audit = createAuditModule(parts);
  const people = createPeopleModule(parts, { workspaces, audit });
  const consoleSessions = createConsoleSessionsModule(parts, { workspaces, audit, people });
  const providers = createProvidersModule(parts, { workspaces });
  const files = createFilesModule(parts);
  const documents = createDocumentsModule(parts, { providers });
  const contextSources = createContextSourcesModule(parts, { documents, files });
  const contexts = createContextsModule(parts, { providers, files, documents, contextSources });
  const apps = createAppsModule(parts);
  const snippets = createSnippetsModule(parts);
  const folders = createFoldersModule(parts);
  const prompts = createPromptsModule(parts);
  const skills = createSkillsModule(parts, { contexts });
  const actions = createActionsModule(parts, { providers, contexts, apps, snippets, prompts, skills });
  const sessions = createSessionsModule(parts, { actions });
  const generations = createGenerationsModule(parts, { apps, actions, sessions });
  const feedback = createFeedbackModule(parts, { generations });
  const runs = createRunsModule(parts, { providers, contexts, skills, actions, sessions, generations });
  const workflows = createWorkflowsModule(parts, { apps, actions, runs });
  const experiments = createExperimentsModule(parts, { apps, actions, sessions, runs });
  const datasets = createDatasetsModule(parts, { generations });
  const evaluators = createEvaluatorsModule(parts, { providers, actions, runs });
  const evaluations = createEvaluationsModule(parts, { actions, runs, datasets, evaluators });
  const releaseGates = createReleaseGatesModule(parts, { actions, datasets, evaluators, evaluations });
  const monitors = createMonitorsModule(parts, { actions, generations, evaluators });
  const reviewQueues = createReviewQueuesModule(parts, {
    people,
    actions,
    generations,
    feedback,
    datasets,
    evaluators,
  });
  const traces = createTracesModule(parts, { actions, generations });
  const webhooks = createWebhooksModule(parts);
  const mcp = createMcpModule(parts, { prompts, contexts, runs });
  const admin = createAdminModule(parts, { workspaces, people });
  const fineTunes = createFineTunesModule();
  const modules = {
    ...{ workspaces, audit, people, consoleSessions },
    providers,
    ...{ files, documents, contextSources, contexts },
    ...{ apps, snippets, folders, prompts, skills, actions },
    ...{ sessions, generations, feedback, runs, workflows, experiments },
    ...{ datasets, evaluators, evaluations, releaseGates, monitors, reviewQueues },
    traces,
    ...{ webhooks, mcp, admin, fineTunes },
  };
  assertProvided([parts.events, ...Object.values(modules).flatMap(portsOf)]);
  return { modules, close: parts.close };
}

export type Modules = ReturnType<typeof createModules>['modules'];

function portsOf(module: FeatureModule): DeclaredPort[] {
  return Object.values(module.ports ?? {});
}

type ServicesOf<Module> = Module extends { services: infer Services } ? Services : never;
type Intersection<Union> = (Union extends unknown ? (each: Union) => void : never) extends (
  all: infer All,
) => void
  ? All
  : never;

/** Every module's services in one object (what routes, workers, the CLI and tests reach). */
export type Services = Intersection<ServicesOf<Modules[keyof Modules]>> & { close(): Promise<void> };

/** The modules' services in one object, and `close`, which stops each module and then the shared parts. */
export function servicesOf(built: ReturnType<typeof createModules>): Services {
  const list: FeatureModule[] = Object.values(built.modules);
  const names = list.flatMap((module) => Object.keys(module.services));
  // One name per service: a second module's service of the same name would replace the first.
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new Error(`Two modules offer a service named "${repeated}"`);
  const services = Object.assign({}, ...list.map((module) => module.services)) as Services;
  services.close = async () => {
    for (const module of list.toReversed()) await module.close?.();
    await built.close();
  };
  return services;
}

/** Every service, wired once per process from the platform (the modules' services in one object). */
export function createServices(platform: Platform): Services {
  return servicesOf(createModules(platform));
}
