import type { QueryClient } from '@tanstack/react-query';
/** An answer of the API that is not 2xx: its message, and the field it names when it names one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * One call to the service. The console authenticates with its session cookie (same origin, sent by
 * the browser); it never sees or stores an API key after signing in.
 */
export async function api<Answer>(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // A proxy in front may answer an error page, not JSON: its status still tells what happened.
  let parsed: { message?: string } | undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    if (response.ok) throw new ApiError(response.status, 'The service answered something that is not JSON');
  }
  if (!response.ok) {
    const message: string = parsed?.message ?? `The service answered ${response.status}`;
    // The API names the field: "name: …", or "Validation failed: body.name: …".
    const field = /(?:^|body\.)([\w.]+): /.exec(message)?.[1];
    throw new ApiError(response.status, message, field);
  }
  return parsed as Answer;
}

export type SignedIn = { workspace: { guid: string; name: string } };

/**
 * Whether the browser may hold a console session: the service sets a readable marker cookie beside
 * the session's own (which scripts cannot read). Without it there is nothing to ask the service
 * about, and asking would log a refused request in the browser's console.
 */
export function mayBeSignedIn(): boolean {
  return document.cookie.split(';').some((pair) => pair.trim().startsWith('lectern_signed_in=1'));
}

/**
 * After a sign-out: every cached answer is forgotten and the session is known to be gone, so the
 * console shows the sign-in page at once, from whichever page signed out.
 */
export function forgetSignIn(queries: QueryClient): void {
  // The session query is kept (its observers stay subscribed) and set, the rest removed.
  queries.setQueryData(['session'], null);
  queries.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
}

export type ListEnvelope<Row> = { data: Row[]; total_count: number; has_next_page: boolean };

export type PromptMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type ToolDefinition = { name: string; description?: string; parameters?: Record<string, unknown> };

/** The versioned part of an Action: what saving a new version may change. */
export type VersionFields = {
  model: string;
  model_config: Record<string, unknown>;
  prompt: string | null;
  messages: PromptMessage[] | null;
  system_message: string | null;
  contexts: string[];
  skills: string[];
  tools: ToolDefinition[];
};

export type Action = VersionFields & {
  guid: string;
  name: string;
  slug: string;
  description: string | null;
  app: string;
  version: number;
  default_environment: string;
  deployments: Record<string, number>;
  disabled: boolean;
  created_at: string;
  updated_at: string;
};

export type ActionVersion = VersionFields & { version: number; environments: string[]; created_at: string };

export type Named = { guid: string; name: string };

export type GenerationCost = { generation?: number; currency?: string } & Record<string, unknown>;

/** One stored generation (`data` on the wire). */
export type Generation = {
  guid: string;
  action: string | null;
  session: string | null;
  input: unknown;
  output: string;
  full_prompt_sent: PromptMessage[] | null;
  model: string | null;
  model_provider: string | null;
  num_input_tokens: number | null;
  num_output_tokens: number | null;
  latency_ms: number | null;
  cost: GenerationCost | null;
  environment: string | null;
  version: number | null;
  source: string | null;
  experiment: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  feedback?: Feedback[];
  /** In the log's list: how many feedback records it has. */
  feedback_count?: number;
};

export type Feedback = {
  guid: string;
  type: string;
  value: unknown;
  source?: string | null;
  created_at: string;
};

export type App = { guid: string; name: string };

export type Context = {
  guid: string;
  name: string;
  description: string | null;
  createdAt: string;
  processed?: boolean;
};

export type ContextSource = {
  guid: string;
  name: string;
  url: string | null;
  indexing_status: 'PENDING' | 'PROCESSING' | 'INDEXED' | 'FAILED';
  indexed_at: string | null;
  indexing_metadata: { documents?: number; chunks?: number; error?: string } | null;
  created_at: string;
};

export type ContextDocument = {
  guid: string;
  content: string;
  metadata: Record<string, unknown> | null;
  created_at: string;
};

export type SearchHit = ContextDocument & { score: number };

/** Which version made a record: `v3`, `draft` for a playground run of unsaved edits, `—` for logged ones. */
export function versionLabel(record: Pick<Generation, 'version' | 'source'>): string {
  if (record.version) return `v${record.version}`;
  const runSources = ['sync', 'stream', 'async'];
  return record.source && runSources.includes(record.source) ? 'draft' : '—';
}
