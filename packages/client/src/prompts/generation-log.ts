import type { Body } from '../api/typed-request.js';
import { LecternError } from '../transport/errors.js';
import type { HttpClient } from '../transport/http.js';
import { retryDelayMs } from '../transport/retry.js';

/** A generation made with a prompt from the cache, as `POST /v1/data/batch` stores it. */
export type GenerationRecord = Body<'POST /v1/data/batch'>['records'][number];

export type GenerationLogOptions = {
  /** Records sent together. Default 50. */
  batchSize?: number;
  /** How long a record may wait for its batch. Default 1,000 ms. */
  flushIntervalMs?: number;
  /** Records kept while the service cannot take them; the oldest are dropped past it. Default 10,000. */
  maxQueued?: number;
};

/**
 * Records generations without making the caller wait: `log` queues and returns; batches go out when
 * full or after `flushIntervalMs`, and a batch the service could not take is sent again with backoff
 * (the service stores a batch whole or not at all). Only when the queue is full are the oldest
 * dropped, and `dropped` counts them.
 */
export class GenerationLog {
  private readonly queue: GenerationRecord[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> | undefined;
  private failures = 0;
  /** Records dropped because the queue was full. */
  dropped = 0;
  /** Records the service refused (a 4xx: sending them again would not help). */
  rejected = 0;
  sent = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly options: GenerationLogOptions = {},
  ) {}

  log(record: GenerationRecord): void {
    this.queue.push(record);
    const overflow = this.queue.length - (this.options.maxQueued ?? 10_000);
    if (overflow > 0) {
      this.queue.splice(0, overflow);
      this.dropped += overflow;
    }
    if (this.queue.length >= (this.options.batchSize ?? 50)) this.schedule(0);
    else this.schedule(this.options.flushIntervalMs ?? 1_000);
  }

  /** Sends what waits now; resolves once the queue is empty or a send failed (it stays queued). */
  async flush(): Promise<void> {
    this.cancelTimer();
    while (this.queue.length > 0) {
      const before = this.sent;
      await this.sendBatch();
      if (this.sent === before) return;
    }
  }

  /** Stops the timer; what is queued stays for a last `flush()`. */
  close(): void {
    this.cancelTimer();
  }

  private cancelTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number) {
    if (this.timer && delayMs > 0) return;
    this.cancelTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sendBatch().then(() => {
        if (this.queue.length > 0)
          this.schedule(this.failures > 0 ? retryDelayMs(this.failures, undefined) : 0);
      });
    }, delayMs);
    // A queued log never keeps a process alive on its own; flush() before exiting sends the rest.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private sendBatch(): Promise<void> {
    this.sending ??= (async () => {
      const batch = this.queue.slice(0, this.options.batchSize ?? 50);
      if (batch.length === 0) return;
      try {
        await this.http.request({
          method: 'POST',
          path: '/v1/data/batch',
          body: { records: batch },
          maxRetries: 0,
        });
        this.queue.splice(0, batch.length);
        this.sent += batch.length;
        this.failures = 0;
      } catch (error) {
        const status = error instanceof LecternError ? error.status : undefined;
        if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
          this.queue.splice(0, batch.length);
          this.rejected += batch.length;
        } else this.failures += 1;
      }
    })().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }
}
