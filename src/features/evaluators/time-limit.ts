import vm from 'node:vm';

/** How long one pattern or schema may take on one output before its score is given up. */
export const scoringTimeLimitMs = 100;

export class ScoringTimedOut extends Error {}

const sandbox = vm.createContext({ work: undefined as (() => unknown) | undefined });
const script = new vm.Script('work()');

/**
 * Runs `work` (a regular expression, a JSON Schema's checks) with a time limit: a pattern written
 * by a workspace's developer may backtrack for minutes on some output (`^(a+)+$`), and V8 stops
 * even a regular expression when a `vm` script's time is up.
 */
export function withinTimeLimit<T>(work: () => T): T {
  // One context for every check: making one costs more than most checks.
  sandbox.work = work;
  try {
    return script.runInContext(sandbox, { timeout: scoringTimeLimitMs }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new ScoringTimedOut(`took longer than ${scoringTimeLimitMs} ms`);
    throw error;
  } finally {
    sandbox.work = undefined;
  }
}
