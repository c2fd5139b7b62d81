/** One event of a generation's token stream (CONTRACT §7). */
export type StreamEvent =
  | { type: 'token'; token: string }
  | { type: 'end' }
  | { type: 'error'; message: string };

export type ClaimResult = 'claimed' | 'consumed' | 'unknown';

/**
 * Carries a generation's tokens from the node producing them to whichever node serves its one-time
 * URL. Embedded: in memory; scale-out: Redis Streams.
 */
export type StreamBus = {
  /** Makes a stream known; it and its events expire after `ttlMs`. */
  create(streamId: string, ttlMs: number): Promise<void>;
  append(streamId: string, event: StreamEvent): Promise<void>;
  /** Atomically marks the stream consumed; only the first caller gets 'claimed'. */
  claim(streamId: string): Promise<ClaimResult>;
  /** Every event from the first, then new ones as they come, ending after 'end' or 'error'. */
  read(streamId: string, signal?: AbortSignal): AsyncIterable<StreamEvent>;
  /** Throws when the bus's store cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
};
