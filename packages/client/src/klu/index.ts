/**
 * A drop-in for Klu's `@kluai/core@0.0.46`: the same classes, namespaces, methods, arguments and
 * answers, against Lectern. Change the import, and pass where Lectern answers:
 *
 *   import Klu from '@lectern/client/klu';
 *   const klu = new Klu(process.env.LECTERN_API_KEY!, { baseUrl: 'https://lectern.internal' });
 *
 * Unlike the SDK it streams every event (a real SSE parser, resumed with `Last-Event-ID`), throws
 * errors that carry the service's status, code and message, retries `429`s and `5xx`s as
 * `Retry-After` says, and takes a time limit.
 */
import { HttpClient } from '../transport/http.js';
import { type ClientOptions, resolveOptions } from '../transport/options.js';
import { Actions } from './actions.js';
import { Contexts } from './contexts.js';
import { Experiments } from './experiments.js';
import { Models } from './models.js';
import { Apps, Data, Feedback, FineTuneClient } from './records.js';
import { Sessions } from './sessions.js';
import { Workspaces } from './workspaces.js';

export type KluOptions = Omit<ClientOptions, 'apiKey'>;

/** Where a Klu client goes without a `baseUrl`: `KLU_ENV=dev` meant localhost:4000, Lectern's default too. */
function baseUrlOf(options: KluOptions): string | undefined {
  if (options.baseUrl) return options.baseUrl;
  const environment = typeof process !== 'undefined' ? process.env : undefined;
  return environment?.KLU_ENV === 'dev' ? 'http://localhost:4000' : undefined;
}

export class Klu {
  readonly apps: Apps;
  readonly data: Data;
  readonly actions: Actions;
  readonly models: Omit<Models, 'update'>;
  readonly contexts: Contexts;
  readonly feedback: Feedback;
  readonly fineTune: Omit<FineTuneClient, 'create'>;
  readonly workspaces: Workspaces;
  readonly experiments: Experiments;
  readonly sessions: Omit<Sessions, 'update'>;

  constructor(apiKey: string, options: KluOptions = {}) {
    const http = new HttpClient(resolveOptions({ ...options, baseUrl: baseUrlOf(options), apiKey }));
    this.apps = new Apps(http);
    this.data = new Data(http);
    this.actions = new Actions(http);
    this.models = new Models(http);
    this.contexts = new Contexts(http);
    this.feedback = new Feedback(http);
    this.fineTune = new FineTuneClient(http);
    this.workspaces = new Workspaces(http);
    this.experiments = new Experiments(http);
    this.sessions = new Sessions(http);
  }
}

export default Klu;
export type { ClientOptions } from '../transport/options.js';
export { ApiConverter } from './converters.js';
export * from './errors.js';
export { Paginator } from './paginator.js';
export * from './types.js';
export { Actions, Apps, Contexts, Data, Experiments, Feedback, FineTuneClient, Models, Sessions, Workspaces };
