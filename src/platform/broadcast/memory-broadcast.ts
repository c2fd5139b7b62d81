import { EventEmitter } from 'node:events';
import type { Broadcast } from './broadcast.js';

/** The embedded broadcast: one process, so an event emitter. */
export function createMemoryBroadcast(): Broadcast {
  const emitter = new EventEmitter();
  // Every connected client's subscription is a listener: many are expected.
  emitter.setMaxListeners(0);
  return {
    async publish(topic, message) {
      emitter.emit(topic, message);
    },
    subscribe(topic, listener) {
      emitter.on(topic, listener);
      return () => emitter.off(topic, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
