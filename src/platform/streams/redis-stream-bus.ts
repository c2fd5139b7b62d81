import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { closeRedis, connectRedis, watchRedisErrors } from '../redis-connection.js';
import type { ClaimResult, NumberedEvent, StreamBus, StreamEvent } from './stream-bus.js';

const streamKey = (streamId: string) => `lectern:stream:${streamId}`;
const claimKey = (streamId: string) => `lectern:stream:${streamId}:claimed`;
const resumeKey = (streamId: string) => `lectern:stream:${streamId}:resumable`;

/** Entries a reader takes per round trip, and how long one blocking read waits for more. */
const readBatch = 200;
const blockMs = 5_000;

/**
 * Unknown, claimed, resumed or consumed — decided inside Redis in one step, so two nodes racing for
 * the same URL cannot both win. The claim lives as long as the stream; the resume window is a key
 * of its own, set once by the first claim, that expires (ARGV[1]: '1' when the caller asks to resume; ARGV[2]: the window in ms).
 */
const claimScript = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return 'unknown' end
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ttl) then
  redis.call('SET', KEYS[3], '1', 'PX', ARGV[2])
  return 'claimed'
end
if ARGV[1] == '1' and redis.call('EXISTS', KEYS[3]) == 1 then return 'resumed' end
return 'consumed'`;

/** Appends only to a stream that still exists: an expired one must not come back without a time to live. */
const appendScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('XADD', KEYS[1], '*', 'event', ARGV[1])
return 1`;

type Entry = [id: string, fields: string[]];

type ScriptedRedis = Redis & {
  lecternAppend(key: string, event: string): Promise<number>;
  lecternClaim(
    stream: string,
    claim: string,
    resume: string,
    asked: string,
    window: number,
  ): Promise<ClaimResult>;
};

/**
 * The scale-out stream bus (docs/architecture.md#platform-parts): a generation's events are a Redis Stream, so the one-time
 * URL may be read on any node. `create` writes a marker entry and sets the key's time to live; later
 * XADDs keep it. Each reader blocks on a connection of its own (XREAD BLOCK holds its connection).
 */
export function createRedisStreamBus(redisUrl: string, logger?: Logger): StreamBus {
  const redis = connectRedis(redisUrl, { maxRetriesPerRequest: 3 }, logger, 'streams') as ScriptedRedis;
  // Sent once, then run by SHA (EVALSHA): one round trip per append or claim.
  redis.defineCommand('lecternAppend', { numberOfKeys: 1, lua: appendScript });
  redis.defineCommand('lecternClaim', { numberOfKeys: 3, lua: claimScript });
  const readers = new Set<Redis>();

  function decode(fields: string[]): StreamEvent | undefined {
    const index = fields.indexOf('event');
    return index === -1 ? undefined : (JSON.parse(fields[index + 1]!) as StreamEvent);
  }

  return {
    async create(streamId, ttlMs) {
      await redis
        .multi()
        .xadd(streamKey(streamId), '*', 'created', '1')
        .pexpire(streamKey(streamId), ttlMs)
        .exec();
    },

    async append(streamId, event) {
      await redis.lecternAppend(streamKey(streamId), JSON.stringify(event));
    },

    async claim(streamId, options): Promise<ClaimResult> {
      return redis.lecternClaim(
        streamKey(streamId),
        claimKey(streamId),
        resumeKey(streamId),
        options.resume ? '1' : '0',
        options.resumeWindowMs,
      );
    },

    async *read(streamId, signal): AsyncGenerator<NumberedEvent> {
      const key = streamKey(streamId);
      if ((await redis.exists(key)) === 0) return;
      const reader = watchRedisErrors(redis.duplicate(), logger, 'stream reader');
      readers.add(reader);
      const stop = () => reader.disconnect();
      signal?.addEventListener('abort', stop, { once: true });
      try {
        let lastId = '0';
        let sequence = 0;
        while (!signal?.aborted) {
          let answer: [string, Entry[]][] | null;
          try {
            answer = (await reader.xread('COUNT', readBatch, 'BLOCK', blockMs, 'STREAMS', key, lastId)) as
              | [string, Entry[]][]
              | null;
          } catch (error) {
            if (signal?.aborted) return;
            throw error;
          }
          if (!answer) {
            // Nothing new for a while: stop if the stream has expired meanwhile.
            if ((await redis.exists(key)) === 0) return;
            continue;
          }
          for (const [id, fields] of answer[0]![1]) {
            lastId = id;
            const event = decode(fields);
            if (!event) continue;
            sequence += 1;
            yield { sequence, event };
            if (event.type !== 'token') return;
          }
        }
      } finally {
        signal?.removeEventListener('abort', stop);
        readers.delete(reader);
        reader.disconnect();
      }
    },

    async ping() {
      await redis.ping();
    },

    async close() {
      for (const reader of readers) reader.disconnect();
      await closeRedis(redis);
    },
  };
}
