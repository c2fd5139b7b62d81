import type { ErrorCode } from '../../../core/error-codes.js';
import { AppError } from '../../../errors.js';
import type { RunResultResponse } from './responses.js';

/** Where a run (an async run, a workflow block) stands, as its result URL reports it. */
export type RunState = {
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';
  output: string | null;
  generationId: string | null;
  errorStatus: number | null;
  errorCode: ErrorCode | null;
  error: string | null;
};

/**
 * docs/api.md result: `Generation in Progress` / `PENDING` until done, then `SUCCESS` with the text. The
 * result route has no failed state, so a failed run answers an error naming why (never PENDING forever).
 */
export function presentRunResult(
  state: RunState,
  feedbackUrl: (generationId: string) => string,
): RunResultResponse {
  if (state.status === 'pending' || state.status === 'running') {
    return { msg: 'Generation in Progress', status: 'PENDING' };
  }
  if (state.status === 'failed' || state.status === 'skipped') {
    throw new AppError(
      state.errorStatus ?? 502,
      state.errorCode ?? 'run_failed',
      `The run failed: ${state.error}`,
    );
  }
  return {
    msg: state.output ?? '',
    status: 'SUCCESS',
    ...(state.generationId && {
      data_guid: state.generationId,
      feedback_url: feedbackUrl(state.generationId),
    }),
  };
}
