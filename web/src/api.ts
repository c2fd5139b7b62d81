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

export type ListEnvelope<Row> = { data: Row[]; total_count: number; has_next_page: boolean };

export type Action = {
  guid: string;
  name: string;
  slug: string;
  app: string;
  model: string;
  version: number;
  deployments: Record<string, number>;
  disabled: boolean;
  updated_at: string;
};

export type App = { guid: string; name: string };
