import { readSnapshot } from '@lectern/prompt-templates';
import { typedRequest } from '../api/typed-request.js';
import { readEventStream } from '../streams/event-stream.js';
import { NotFoundError } from '../transport/errors.js';
import type { HttpClient } from '../transport/http.js';
import {
  type DeployedPromptRecord,
  Prompt,
  type PromptSnapshot,
  type RenderedPrompt,
  type RenderOptions,
} from './prompt.js';

export type PromptCacheOptions = {
  /** After this long a cached prompt is revalidated in the background (it is still served meanwhile). Default 60,000 ms. */
  ttlMs?: number;
  /** A snapshot (`lectern prompts export`) to serve from before the service answers: its path (Node) or its content. */
  snapshot?: string | PromptSnapshot;
  /** A file (Node) the cache is kept in, read at start and written after changes: prompts survive a restart without the service. */
  cacheFile?: string;
  /** Whether to keep a connection that the service pushes deploys over (`GET /v1/deployments/events`). Default true. */
  subscribe?: boolean;
  /**
   * An OpenTelemetry tracer (`trace.getTracer('app')` of `@opentelemetry/api`): `withRendered` then
   * runs its callback in a span naming the prompt version, so a model call made there belongs to it.
   */
  tracer?: RenderTracer;
};

/** A span as `withRendered` uses it: what `@opentelemetry/api`'s spans have (the client does not depend on it). */
export type RenderSpan = {
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
};

/** An OpenTelemetry tracer as `withRendered` uses it. */
export type RenderTracer = {
  startActiveSpan<Result>(
    name: string,
    options: { attributes: Record<string, string | number> },
    work: (span: RenderSpan) => Result,
  ): Result;
};

type Entry = { prompt: Prompt; fetchedAt: number; revalidating?: Promise<void> };

/** Environment `''`: the Action's default environment. */
const keyOf = (slugOrGuid: string, environment = '') => `${slugOrGuid}@${environment}`;

async function nodeFiles() {
  return import('node:fs/promises');
}

/**
 * Deployed prompts served from memory: `get` answers from the cache at once and revalidates an entry
 * older than `ttlMs` in the background (stale-while-revalidate); a miss asks the service. The cache
 * is seeded from a snapshot and a cache file, so a cold start needs no network, and while the
 * service is down every cached prompt keeps being served. Deploys are pushed by the service and
 * replace entries within moments; after a broken push connection every entry is revalidated.
 */
export class PromptCache {
  private readonly entries = new Map<string, Entry>();
  private seeded: Promise<void> | undefined;
  private events: AbortController | undefined;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the service has confirmed the push connection (its `ready` event) since the cache opened it. */
  subscribed = false;
  /** Background revalidations that failed (the service was unreachable); the cached prompt was served. */
  staleServed = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly options: PromptCacheOptions = {},
  ) {}

  /** The deployed prompt: from the cache when it holds it, else from the service. */
  async get(slugOrGuid: string, options: { environment?: string } = {}): Promise<Prompt> {
    const key = keyOf(slugOrGuid, options.environment);
    this.subscribe();
    let entry = this.entries.get(key);
    if (!entry) {
      this.seeded ??= this.seed();
      await this.seeded;
      entry = this.entries.get(key);
    }
    if (entry) {
      if (Date.now() - entry.fetchedAt > (this.options.ttlMs ?? 60_000))
        this.revalidate(key, entry, slugOrGuid, options.environment);
      return entry.prompt;
    }
    return this.store(await this.fetch(slugOrGuid, options.environment));
  }

  /**
   * Renders the deployed prompt and hands its messages to `use` (your model call). With a `tracer`,
   * `use` runs in a span `lectern.render <slug>` carrying `lectern.action` and `lectern.version`:
   * the model call's span is its child, and Lectern stores that call as a generation of this version
   * (docs/traces.md#the-lectern-client).
   */
  async withRendered<Result>(
    slugOrGuid: string,
    input: Parameters<Prompt['render']>[0],
    use: (messages: RenderedPrompt['messages'], rendered: RenderedPrompt) => Promise<Result>,
    options: { environment?: string } & RenderOptions = {},
  ): Promise<Result> {
    const { environment, ...renderOptions } = options;
    const prompt = await this.get(slugOrGuid, { environment });
    const rendered = await prompt.render(input, renderOptions);
    const tracer = this.options.tracer;
    if (!tracer) return use(rendered.messages, rendered);
    const attributes = {
      'lectern.action': rendered.action,
      'lectern.version': rendered.version,
      'lectern.environment': rendered.environment,
    };
    return tracer.startActiveSpan(`lectern.render ${prompt.slug}`, { attributes }, async (span) => {
      try {
        return await use(rendered.messages, rendered);
      } catch (error) {
        span.setStatus({ code: 2, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /** The cached prompt, without waiting and without the network; undefined on a miss. */
  getCached(slugOrGuid: string, options: { environment?: string } = {}): Prompt | undefined {
    return this.entries.get(keyOf(slugOrGuid, options.environment))?.prompt;
  }

  /** Every cached prompt as a snapshot (what `lectern prompts export` writes). */
  snapshot(): PromptSnapshot {
    const unique = new Map<string, DeployedPromptRecord>();
    for (const { prompt } of this.entries.values())
      unique.set(`${prompt.action}@${prompt.environment}`, prompt.record);
    return {
      format: 'lectern-prompts',
      version: 1,
      exported_at: new Date().toISOString(),
      environment: null,
      prompts: [...unique.values()],
    };
  }

  /** Stops the push connection and writes the cache file one last time. */
  async close(): Promise<void> {
    this.events?.abort();
    this.events = undefined;
    this.subscribed = false;
    if (this.writeTimer) {
      clearTimeout(this.writeTimer);
      this.writeTimer = undefined;
      await this.writeCacheFile();
    }
  }

  private async fetch(slugOrGuid: string, environment: string | undefined): Promise<DeployedPromptRecord> {
    return typedRequest(this.http, 'GET /v1/prompts/{guidOrSlug}', {
      path: { guidOrSlug: slugOrGuid },
      query: environment === undefined ? undefined : { environment },
    });
  }

  /**
   * Keeps a record under every key a caller may ask it by: its GUID and its slug, with its
   * environment, and with none when that is the Action's default. Seeded records (`fetchedAt` 0)
   * never replace fetched ones, and are revalidated on their first use.
   */
  private store(record: DeployedPromptRecord, fetchedAt = Date.now()): Prompt {
    const prompt = new Prompt(record);
    const environments = [
      record.environment,
      ...(record.environment === record.default_environment ? [''] : []),
    ];
    for (const name of [record.action, record.slug]) {
      for (const environment of environments) {
        const key = keyOf(name, environment);
        if (fetchedAt === 0 && this.entries.has(key)) continue;
        this.entries.set(key, { prompt, fetchedAt });
      }
    }
    if (fetchedAt !== 0) this.scheduleWrite();
    return prompt;
  }

  private revalidate(key: string, entry: Entry, slugOrGuid: string, environment: string | undefined) {
    entry.revalidating ??= this.fetch(slugOrGuid, environment)
      .then((record) => void this.store(record))
      .catch((error: unknown) => {
        // Gone from the service: stop serving it. Unreachable: keep serving it, and try again later.
        if (error instanceof NotFoundError) this.entries.delete(key);
        else {
          this.staleServed += 1;
          entry.fetchedAt = Date.now();
        }
      })
      .finally(() => {
        entry.revalidating = undefined;
      });
  }

  /** Entries from the snapshot and the cache file, stale (so the first `get` revalidates them). */
  private async seed(): Promise<void> {
    const records: DeployedPromptRecord[] = [];
    const { snapshot, cacheFile } = this.options;
    if (typeof snapshot === 'object') records.push(...(snapshot.prompts as DeployedPromptRecord[]));
    else if (typeof snapshot === 'string') {
      const { readFile } = await nodeFiles();
      records.push(...(readSnapshot(await readFile(snapshot, 'utf8')).prompts as DeployedPromptRecord[]));
    }
    if (cacheFile) {
      const { readFile } = await nodeFiles();
      const text = await readFile(cacheFile, 'utf8').catch(() => undefined);
      if (text) records.push(...(readSnapshot(text).prompts as DeployedPromptRecord[]));
    }
    for (const record of records) this.store(record, 0);
  }

  private matches(key: string, prompt: Prompt, action: string, environment: string) {
    if (prompt.action !== action) return false;
    const asked = key.slice(key.lastIndexOf('@') + 1);
    return asked === environment || (asked === '' && prompt.record.default_environment === environment);
  }

  /** Opens the push connection once; it reconnects by itself until `close`. */
  private subscribe() {
    if (this.events || this.options.subscribe === false) return;
    const controller = new AbortController();
    this.events = controller;
    let connections = 0;
    void (async () => {
      try {
        const stream = readEventStream(this.http, '/v1/deployments/events', {
          signal: controller.signal,
          isLast: () => false,
          maxReconnects: Number.POSITIVE_INFINITY,
        });
        for await (const event of stream) {
          if (event.event === 'ready') {
            connections += 1;
            this.subscribed = true;
            // Deploys made while the connection was down were not heard: read every entry again.
            if (connections > 1) for (const entry of this.entries.values()) entry.fetchedAt = 0;
            continue;
          }
          const data = JSON.parse(event.data) as DeployedPromptRecord & {
            action: string;
            environment: string;
          };
          const held = [...this.entries].filter(([key, entry]) =>
            this.matches(key, entry.prompt, data.action, data.environment),
          );
          if (event.event === 'removed') for (const [key] of held) this.entries.delete(key);
          else if (
            event.event === 'deployment' &&
            held.some(([, entry]) => data.deployed_at >= entry.prompt.record.deployed_at)
          )
            this.store(data);
        }
      } catch {
        // Aborted by close().
      }
    })();
  }

  private scheduleWrite() {
    if (!this.options.cacheFile || this.writeTimer) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      void this.writeCacheFile();
    }, 1_000);
    (this.writeTimer as { unref?: () => void }).unref?.();
  }

  private async writeCacheFile() {
    if (!this.options.cacheFile) return;
    const { writeFile, rename } = await nodeFiles();
    const temporary = `${this.options.cacheFile}.${process.pid}.tmp`;
    // Written aside, then renamed: a crash mid-write never leaves half a cache file.
    await writeFile(temporary, JSON.stringify(this.snapshot()));
    await rename(temporary, this.options.cacheFile);
  }
}
