/**
 * Messages every node hears (a deploy, so each node tells its connected clients). Embedded: in
 * memory; scale-out: Redis publish/subscribe. Delivery is at most once and only to nodes listening
 * now: a listener that missed messages (it was not connected) catches up by reading the state again.
 */
export type Broadcast = {
  publish(topic: string, message: string): Promise<void>;
  /** Calls `listener` for each message on `topic` until the returned function is called. */
  subscribe(topic: string, listener: (message: string) => void): () => void;
  close(): Promise<void>;
};
