/** What the check worker is asked: does a pattern match a text, does a value meet a JSON Schema. */
export type CheckRequest =
  | { id: number; kind: 'regex'; pattern: string; flags: string; text: string }
  | { id: number; kind: 'schema'; schema: Record<string, unknown>; value: unknown }
  /** Whether a schema compiles (an evaluator's, when it is saved): Ajv's error if it does not. */
  | { id: number; kind: 'compile'; schema: Record<string, unknown> };

/**
 * What the worker says of a request: that its check has started (the pattern or schema compiled;
 * the time limit counts from here), then its answer.
 */
export type CheckAnswer =
  | { id: number; started: true }
  | { id: number; passed: boolean }
  | { id: number; error: string };

/** The worker's first message: its module is loaded. */
export type CheckWorkerReady = { ready: true };
