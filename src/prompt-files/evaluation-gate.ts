import type { ActionResponse } from '../features/authoring/actions/responses.js';
import type { EvaluationResponse } from '../features/quality/evaluations/responses.js';
import type { GateCheckResponse, GateResponse } from '../features/quality/release-gates/responses.js';
import { type ServiceClient, ServiceError } from './service-client.js';

/** `lectern eval --gate` exits 0 when a deploy would pass, 2 when the gate says no, 1 on any other error. */
export const gateExit = { passes: 0, failed: 1, refused: 2 } as const;

const finalStatuses = new Set(['SUCCESS', 'FAILED', 'CANCELLED']);

export type GateOptions = {
  action: string;
  version?: number;
  environment: string;
  /** Between two looks at a running evaluation. */
  pollMs?: number;
  /** Told each line as it happens (a CI log shows progress). */
  print: (line: string) => void;
};

const formatted = (value: number | null) => (value === null ? '—' : value.toFixed(3));

/**
 * `lectern eval --action SLUG [--version N] --gate ENV`: runs the evaluation the environment's release
 * gate asks for (unless that version already has one), waits for it, prints each evaluator's mean
 * and interval and every condition, and answers whether a deploy there would pass.
 */
export async function evaluateGate(client: ServiceClient, options: GateOptions): Promise<number> {
  const { environment, print } = options;
  const action = await client.request<ActionResponse>(
    'GET',
    `/v1/actions/${encodeURIComponent(options.action)}`,
  );
  const version = options.version ?? action.version;
  const base = `/v1/actions/${action.guid}/gates/${encodeURIComponent(environment)}`;
  const gate = await client.request<GateResponse>('GET', base).catch((error: unknown) => {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  });
  if (!gate) {
    print(`${action.slug} v${version}: "${environment}" has no release gate; a deploy there passes`);
    return gateExit.passes;
  }
  let check = await client.request<GateCheckResponse>('GET', `${base}/check?version=${version}`);
  const missing = check.conditions.find(
    (condition) => condition.condition === 'evaluation_missing' && !condition.met,
  );
  let evaluationId = check.conditions.find((condition) => condition.evaluation)?.evaluation;
  if (missing) {
    const started = await client.request<EvaluationResponse>('POST', '/v1/evaluations', {
      action: action.guid,
      version,
      dataset: gate.dataset,
      dataset_version: gate.dataset_version,
      evaluators: gate.evaluators,
      name: `${action.slug} v${version}: gate of ${environment}`,
    });
    evaluationId = started.guid;
    print(
      `evaluating ${action.slug} v${version} on ${started.progress.total} items (evaluation ${started.guid})`,
    );
  }
  if (evaluationId) {
    let evaluation = await client.request<EvaluationResponse>('GET', `/v1/evaluations/${evaluationId}`);
    while (!finalStatuses.has(evaluation.status)) {
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1_000));
      evaluation = await client.request<EvaluationResponse>('GET', `/v1/evaluations/${evaluationId}`);
    }
    if (evaluation.status !== 'SUCCESS') {
      print(
        `evaluation ${evaluation.guid} ended ${evaluation.status}${evaluation.error ? `: ${evaluation.error}` : ''}`,
      );
      return gateExit.failed;
    }
    for (const [, summary] of Object.entries(evaluation.summary))
      print(
        `${summary.name}: mean ${formatted(summary.mean)} (95% interval ${formatted(summary.ci_low)}–${formatted(summary.ci_high)}, n=${summary.n})`,
      );
    check = await client.request<GateCheckResponse>('GET', `${base}/check?version=${version}`);
  }
  for (const condition of check.conditions)
    print(
      `${condition.met ? 'met' : 'NOT met'}: ${condition.condition}${condition.evaluator ? ` (${condition.evaluator})` : ''}` +
        `${condition.required !== undefined ? ` required ${JSON.stringify(condition.required)}` : ''}` +
        `${condition.actual !== undefined ? `, actual ${JSON.stringify(condition.actual)}` : ''}`,
    );
  print(
    check.passed
      ? `${action.slug} v${version} passes the release gate of "${environment}"`
      : `${action.slug} v${version} does not pass the release gate of "${environment}"`,
  );
  return check.passed ? gateExit.passes : gateExit.refused;
}
