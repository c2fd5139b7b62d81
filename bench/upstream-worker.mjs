import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// Worker threads do not inherit the tsx loader of `npm run bench`: register it, then start the
// tests' OpenAI-compatible upstream here, off the event loop of the client that measures.
register();
const { startChatUpstream } = await import('../test/helpers/chat-upstream.ts');
const upstream = await startChatUpstream({ recordCalls: false });
parentPort?.postMessage(upstream.url);
