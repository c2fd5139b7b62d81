import { z } from 'zod';
import { type EvaluatorTypeName, evaluatorTypeNames } from '../../../core/wire-values.js';
import type { Unnumbered } from '../../../platform/worker-calls.js';
import type { CheckRequest } from './check-protocol.js';
import { ScoringTimedOut } from './check-runner.js';

/** What one score is computed from: a run's output and what is known of the run. */
export type ScoringCase = {
  input: unknown;
  output: string;
  expectedOutput: string | null;
  latencyMs: number | null;
  costUsd: number | null;
};

/**
 * A number in [0, 1], or null with the reason it could not be computed; `costUsd` is what scoring
 * itself cost (a judge's run), when it cost anything.
 */
export type Score = { score: number | null; error: string | null; costUsd?: number };

/** What scoring needs from the rest of the service: the workspace's embedder and its Actions. */
export type ScoringTools = {
  /** Cosine similarity of two texts' embeddings. */
  similarity(workspaceId: string, first: string, second: string): Promise<number>;
  /** Runs the judge Action with these input variables (an `evaluation` run); its reply and cost. */
  judge(
    workspaceId: string,
    action: string,
    variables: Record<string, string>,
  ): Promise<{ reply: string; costUsd: number | null }>;
  /** Whether the workspace has this Action (a judge is checked when the evaluator is saved). */
  hasAction(workspaceId: string, action: string): Promise<boolean>;
  /**
   * Runs a pattern or a schema on the check threads, in `workspaceId`'s turn (check-runner.ts);
   * throws ScoringTimedOut.
   */
  check(workspaceId: string, request: Unnumbered<CheckRequest>): Promise<boolean>;
};

/** An item's input as a judge reads it: text as it is, anything else as JSON. */
function inputText(input: unknown): string {
  if (input === undefined || input === null) return '';
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** A judge's reply read as a score: a number, or a JSON object with a numeric `score`, within [min, max]. */
function judgedScore(reply: string, min: number, max: number): Score {
  const text = reply.trim();
  let value: unknown = text === '' ? undefined : Number(text);
  if (typeof value !== 'number' || Number.isNaN(value)) {
    try {
      value = (JSON.parse(text) as { score?: unknown })?.score;
    } catch {
      value = undefined;
    }
  }
  if (typeof value !== 'number' || !Number.isFinite(value))
    return notScored(
      `the judge answered neither a number nor a JSON object with a numeric score: ${text.slice(0, 200)}`,
    );
  if (value < min || value > max) return notScored(`the judge's score ${value} is outside [${min}, ${max}]`);
  return { score: (value - min) / (max - min), error: null };
}

type EvaluatorType<Config> = {
  config: z.ZodType<Config>;
  /** Whether it compares with `expected_output` (monitors on live traffic have none). */
  needsExpectedOutput: boolean;
  score(
    config: Config,
    scoring: ScoringCase,
    tools: ScoringTools,
    workspaceId: string,
  ): Promise<Score> | Score;
};

const scored = (passed: boolean): Score => ({ score: passed ? 1 : 0, error: null });
const notScored = (error: string): Score => ({ score: null, error });
const noExpectedOutput = notScored('the item has no expected_output to compare with');

/** A `json_valid` schema's size at most: a larger one is refused when the evaluator is saved. */
const maximumSchemaCharacters = 100_000;

const patternFlags = z
  .string()
  .regex(/^[imsu]*$/, 'takes the flags i, m, s and u only')
  .optional();

/** A pattern or schema check on the check worker: a check out of time is a null score with why. */
async function checked(
  tools: ScoringTools,
  workspaceId: string,
  request: Parameters<ScoringTools['check']>[1],
): Promise<Score> {
  try {
    return scored(await tools.check(workspaceId, request));
  } catch (error) {
    if (error instanceof ScoringTimedOut) return notScored(`the check ${error.message}`);
    throw error;
  }
}

const types = {
  exact_match: {
    config: z.strictObject({ case_sensitive: z.boolean().optional() }),
    needsExpectedOutput: true,
    score(config, { output, expectedOutput }) {
      if (expectedOutput === null) return noExpectedOutput;
      const [actual, expected] = [output.trim(), expectedOutput.trim()];
      return scored(
        config.case_sensitive === false
          ? actual.toLowerCase() === expected.toLowerCase()
          : actual === expected,
      );
    },
  } satisfies EvaluatorType<{ case_sensitive?: boolean }>,

  contains: {
    config: z.strictObject({
      value: z
        .string()
        .min(1)
        .max(10_000)
        .optional()
        .describe('What the output must contain; else expected_output'),
      case_sensitive: z.boolean().optional(),
    }),
    needsExpectedOutput: false,
    score(config, { output, expectedOutput }) {
      const needle = config.value ?? expectedOutput;
      if (needle === null) return notScored('there is no config.value and no expected_output to look for');
      return scored(
        config.case_sensitive === false
          ? output.toLowerCase().includes(needle.toLowerCase())
          : output.includes(needle),
      );
    },
  } satisfies EvaluatorType<{ value?: string; case_sensitive?: boolean }>,

  regex: {
    config: z
      .strictObject({ pattern: z.string().min(1).max(1_000), flags: patternFlags })
      .superRefine((config, context) => {
        try {
          new RegExp(config.pattern, config.flags);
        } catch (error) {
          context.addIssue({ code: 'custom', path: ['pattern'], message: (error as Error).message });
        }
      }),
    needsExpectedOutput: false,
    score(config, { output }, tools, workspaceId) {
      return checked(tools, workspaceId, {
        kind: 'regex',
        pattern: config.pattern,
        flags: config.flags ?? '',
        text: output,
      });
    },
  } satisfies EvaluatorType<{ pattern: string; flags?: string }>,

  json_valid: {
    config: z
      .strictObject({
        schema: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema the output must meet'),
      })
      .superRefine((config, context) => {
        // Compiled when saved, on a check thread with a time limit (compileSchemaOf), never here.
        if (config.schema && JSON.stringify(config.schema).length > maximumSchemaCharacters)
          context.addIssue({
            code: 'custom',
            path: ['schema'],
            message: `is larger than ${maximumSchemaCharacters.toLocaleString('en')} characters`,
          });
      }),
    needsExpectedOutput: false,
    score(config, { output }, tools, workspaceId) {
      let value: unknown;
      try {
        value = JSON.parse(output);
      } catch {
        return scored(false);
      }
      if (!config.schema) return scored(true);
      return checked(tools, workspaceId, { kind: 'schema', schema: config.schema, value });
    },
  } satisfies EvaluatorType<{ schema?: Record<string, unknown> }>,

  similarity: {
    config: z.strictObject({}),
    needsExpectedOutput: true,
    async score(_config, { output, expectedOutput }, tools, workspaceId) {
      if (expectedOutput === null) return noExpectedOutput;
      const similarity = await tools.similarity(workspaceId, output, expectedOutput);
      return { score: Math.min(1, Math.max(0, similarity)), error: null };
    },
  } satisfies EvaluatorType<Record<string, never>>,

  llm_judge: {
    config: z
      .strictObject({
        action: z.uuid({ message: 'must be a GUID' }).describe('The judge Action'),
        min: z.number().optional().describe('The judge’s lowest score (default 0)'),
        max: z.number().optional().describe('The judge’s highest score (default 1)'),
      })
      .refine((config) => (config.min ?? 0) < (config.max ?? 1), {
        message: 'must be above min',
        path: ['max'],
      }),
    needsExpectedOutput: false,
    async score(config, { input, output, expectedOutput }, tools, workspaceId) {
      const { reply, costUsd } = await tools.judge(workspaceId, config.action, {
        input: inputText(input),
        output,
        expected_output: expectedOutput ?? '',
      });
      const score = judgedScore(reply, config.min ?? 0, config.max ?? 1);
      return costUsd === null ? score : { ...score, costUsd };
    },
  } satisfies EvaluatorType<{ action: string; min?: number; max?: number }>,

  latency: {
    config: z.strictObject({ max_ms: z.number().positive() }),
    needsExpectedOutput: false,
    score(config, { latencyMs }) {
      if (latencyMs === null) return notScored('the run’s latency is not known');
      return scored(latencyMs <= config.max_ms);
    },
  } satisfies EvaluatorType<{ max_ms: number }>,

  cost: {
    config: z.strictObject({ max_usd: z.number().nonnegative() }),
    needsExpectedOutput: false,
    score(config, { costUsd }) {
      if (costUsd === null) return notScored('the run’s cost is not known');
      return scored(costUsd <= config.max_usd);
    },
  } satisfies EvaluatorType<{ max_usd: number }>,
} satisfies Record<EvaluatorTypeName, unknown>;

export { type EvaluatorTypeName, evaluatorTypeNames };

/** What a saved evaluator's config must compile on a check thread: a `json_valid` schema. */
export function schemaToCompile(
  type: EvaluatorTypeName,
  config: Record<string, unknown>,
): Record<string, unknown> | undefined {
  return type === 'json_valid' ? (config.schema as Record<string, unknown> | undefined) : undefined;
}

/** The type's checked settings; the zod error names the field inside `config`. */
export function parseConfig(type: EvaluatorTypeName, config: unknown) {
  return (types[type].config as z.ZodType<Record<string, unknown>>).safeParse(config ?? {});
}

/** The Action an evaluator runs as its judge, if its type has one. */
export function judgeActionOf(type: EvaluatorTypeName, config: Record<string, unknown>): string | undefined {
  return type === 'llm_judge' ? (config.action as string) : undefined;
}

export function needsExpectedOutput(type: EvaluatorTypeName): boolean {
  return types[type].needsExpectedOutput;
}

/**
 * Scores one case. A score that cannot be computed (no expected output, a check out of time, an
 * embedder that fails) is `null` with its reason: never an error of the caller.
 */
export async function scoreCase(
  evaluator: { type: EvaluatorTypeName; config: Record<string, unknown> },
  scoring: ScoringCase,
  tools: ScoringTools,
  workspaceId: string,
): Promise<Score> {
  const type = types[evaluator.type] as EvaluatorType<Record<string, unknown>>;
  try {
    return await type.score(evaluator.config, scoring, tools, workspaceId);
  } catch (error) {
    return notScored((error as Error).message);
  }
}
