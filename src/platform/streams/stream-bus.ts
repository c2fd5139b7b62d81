/** One event of a generation's token stream (docs/streaming.md). */
export type StreamEvent =
  | { type: 'token'; token: string }
  | { type: 'end' }
  | { type: 'error'; message: string };

/** An event with its number in the stream (1 for the first), sent as the SSE `id:`. */
export type NumberedEvent = { sequence: number; event: StreamEvent };

/**
 * 'claimed': this is the first consumer. 'resumed': the stream was claimed, but the caller asked to
 * resume (a reconnect with `Last-Event-ID`) while the claim's resume window was open.
 */
export type ClaimResult = 'claimed' | 'resumed' | 'consumed' | 'unknown';

export type ClaimOptions = {
  /** The caller is a reconnect that may continue a claimed stream. */
  resume: boolean;
  /** How long after the first claim a reconnect may resume; nothing extends it. */
  resumeWindowMs: number;
};

/**
 * Carries a generation's tokens from the node producing them to whichever node serves its one-time
 * URL. Embedded: in memory; scale-out: Redis Streams.
 */
export type StreamBus = {
  /** Makes a stream known; it and its events expire after `ttlMs`. */
  create(streamId: string, ttlMs: number): Promise<void>;
  append(streamId: string, event: StreamEvent): Promise<void>;
  /** Atomically marks the stream consumed; only the first caller gets 'claimed'. */
  claim(streamId: string, options: ClaimOptions): Promise<ClaimResult>;
  /** Every event from the first, then new ones as they come, ending after 'end' or 'error'. */
  read(streamId: string, signal?: AbortSignal): AsyncIterable<NumberedEvent>;
  /** Throws when the bus's store cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
};
