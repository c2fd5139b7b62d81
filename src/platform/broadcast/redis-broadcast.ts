import type { Logger } from 'pino';
import { closeRedis, connectRedis } from '../redis-connection.js';
import type { Broadcast } from './broadcast.js';
import { createMemoryBroadcast } from './memory-broadcast.js';

/**
 * The scale-out broadcast: Redis PUBLISH, heard by one SUBSCRIBE connection per node, which hands
 * each message to the node's own listeners. `prefix` keeps the nodes of one database together.
 */
export function createRedisBroadcast(redisUrl: string, prefix: string, logger?: Logger): Broadcast {
  const publisher = connectRedis(redisUrl, { maxRetriesPerRequest: 3 }, logger, 'broadcast');
  const subscriber = connectRedis(redisUrl, { maxRetriesPerRequest: null }, logger, 'broadcast-subscriber');
  const local = createMemoryBroadcast();
  const channel = (topic: string) => `${prefix}:broadcast:${topic}`;
  const subscribed = new Map<string, number>();
  subscriber.on('message', (from: string, message: string) => {
    const topic = from.slice(channel('').length);
    void local.publish(topic, message);
  });
  return {
    async publish(topic, message) {
      await publisher.publish(channel(topic), message);
    },
    subscribe(topic, listener) {
      const count = subscribed.get(topic) ?? 0;
      subscribed.set(topic, count + 1);
      if (count === 0) void subscriber.subscribe(channel(topic)).catch(() => undefined);
      const unsubscribe = local.subscribe(topic, listener);
      return () => {
        unsubscribe();
        const left = (subscribed.get(topic) ?? 1) - 1;
        subscribed.set(topic, left);
        if (left === 0) void subscriber.unsubscribe(channel(topic)).catch(() => undefined);
      };
    },
    async close() {
      await local.close();
      await Promise.all([closeRedis(publisher), closeRedis(subscriber)]);
    },
  };
}
