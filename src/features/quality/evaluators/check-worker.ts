import { parentPort } from 'node:worker_threads';
import type { CheckAnswer, CheckRequest, CheckWorkerReady } from './check-protocol.js';
import { compiledSchema } from './schema-cache.js';

/**
 * The check worker: runs an evaluator's regular expression or JSON Schema on an output, off the
 * request thread. A pattern a developer wrote may backtrack for minutes on some output; here it
 * holds this thread only, and the runner (check-runner.ts) ends the thread when its time is up.
 */
const port = parentPort!;
const patterns = new Map<string, RegExp>();

function patternOf(pattern: string, flags: string): RegExp {
  const key = `${flags}/${pattern}`;
  let compiled = patterns.get(key);
  if (!compiled) {
    compiled = new RegExp(pattern, flags);
    if (patterns.size >= 200) patterns.delete(patterns.keys().next().value!);
    patterns.set(key, compiled);
  }
  return compiled;
}

/**
 * Compiles first (the runner allows it more time, once: compiled patterns and schemas are kept),
 * says the check has started, then runs it.
 */
function check(request: CheckRequest): CheckAnswer {
  try {
    if (request.kind === 'compile') {
      compiledSchema(request.schema);
      return { id: request.id, passed: true };
    }
    if (request.kind === 'regex') {
      const pattern = patternOf(request.pattern, request.flags);
      port.postMessage({ id: request.id, started: true } satisfies CheckAnswer);
      return { id: request.id, passed: pattern.test(request.text) };
    }
    const validate = compiledSchema(request.schema);
    port.postMessage({ id: request.id, started: true } satisfies CheckAnswer);
    return { id: request.id, passed: validate(request.value) === true };
  } catch (error) {
    return { id: request.id, error: (error as Error).message };
  }
}

port.on('message', (request: CheckRequest) => port.postMessage(check(request)));
port.postMessage({ ready: true } satisfies CheckWorkerReady);
