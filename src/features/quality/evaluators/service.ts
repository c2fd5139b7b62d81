import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { type GateReference, NotFoundError, UsedByGateError, ValidationError } from '../../../errors.js';
import {
  type EvaluatorTypeName,
  judgeActionOf,
  parseConfig,
  type Score,
  type ScoringCase,
  type ScoringTools,
  schemaToCompile,
  scoreCase,
} from './evaluator-types.js';
import type { EvaluatorRepository, EvaluatorRow } from './repository.js';
import type { EvaluatorChange, NewEvaluator } from './schemas.js';

export interface EvaluatorService {
  create(workspaceId: string, creatorId: string, fields: NewEvaluator): Promise<EvaluatorRow>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<EvaluatorRow>>;
  require(workspaceId: string, id: string): Promise<EvaluatorRow>;
  /** The evaluator as it is now with its type named, or undefined once deleted (a monitor's scores then stop). */
  find(
    workspaceId: string,
    id: string,
  ): Promise<{ id: string; type: EvaluatorTypeName; config: Record<string, unknown> } | undefined>;
  change(workspaceId: string, id: string, fields: EvaluatorChange): Promise<EvaluatorRow>;
  remove(workspaceId: string, id: string): Promise<void>;
  /** Scores one case with an evaluator, saved or not (its settings are checked first). */
  score(
    workspaceId: string,
    evaluator: { type: EvaluatorTypeName; config?: Record<string, unknown> },
    scoring: ScoringCase,
  ): Promise<Score>;
}

/** The type's settings, checked: a bad one is a 400 naming its field inside `config`. */
function checkedConfig(type: EvaluatorTypeName, config: unknown): Record<string, unknown> {
  const parsed = parseConfig(type, config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError(['config', ...issue.path].join('.'), issue.message);
  }
  return parsed.data;
}

/**
 * What a config names must hold when the evaluator is saved: a judge Action of the workspace, and a
 * JSON Schema that compiles, on a check thread within its time limit (a schema written to compile
 * for seconds holds that thread only, and is refused).
 */
async function checkReferences(
  tools: ScoringTools,
  workspaceId: string,
  type: EvaluatorTypeName,
  config: Record<string, unknown>,
): Promise<void> {
  const action = judgeActionOf(type, config);
  if (action && !(await tools.hasAction(workspaceId, action)))
    throw new ValidationError('config.action', `Action ${action} not found`);
  const schema = schemaToCompile(type, config);
  if (schema)
    await tools.check(workspaceId, { kind: 'compile', schema }).catch((error: unknown) => {
      throw new ValidationError('config.schema', (error as Error).message);
    });
}

export function createEvaluatorService(dependencies: {
  repository: EvaluatorRepository;
  tools: ScoringTools;
  /** The release gates that read an evaluator (the release-gates feature): such an evaluator is not removed. */
  gatesUsing?: (workspaceId: string, id: string) => Promise<GateReference[]>;
}): EvaluatorService {
  const { repository, tools, gatesUsing = async () => [] } = dependencies;

  async function require(workspaceId: string, id: string): Promise<EvaluatorRow> {
    const evaluator = await repository.find(workspaceId, id);
    if (!evaluator) throw new NotFoundError('Evaluator not found');
    return evaluator;
  }

  return {
    async create(workspaceId, creatorId, fields) {
      const config = checkedConfig(fields.type, fields.config);
      await checkReferences(tools, workspaceId, fields.type, config);
      return repository.insert({
        id: randomUUID(),
        workspaceId,
        name: fields.name,
        type: fields.type,
        config,
        createdById: creatorId,
      });
    },

    async list(workspaceId, { skip, limit }) {
      return repository.list(workspaceId, skip, limit);
    },

    require,

    async find(workspaceId, id) {
      const found = await repository.find(workspaceId, id);
      return found && { id, type: found.type as EvaluatorTypeName, config: found.config };
    },

    async change(workspaceId, id, fields) {
      const current = await require(workspaceId, id);
      const type = current.type as EvaluatorTypeName;
      const config = fields.config === undefined ? undefined : checkedConfig(type, fields.config);
      if (config) await checkReferences(tools, workspaceId, type, config);
      const evaluator = await repository.update(workspaceId, id, {
        ...(fields.name !== undefined && { name: fields.name }),
        ...(config && { config }),
      });
      if (!evaluator) throw new NotFoundError('Evaluator not found');
      return evaluator;
    },

    async remove(workspaceId, id) {
      await require(workspaceId, id);
      const gates = await gatesUsing(workspaceId, id);
      if (gates.length > 0) throw new UsedByGateError('evaluator', gates);
      if (!(await repository.update(workspaceId, id, { deletedAt: new Date() })))
        throw new NotFoundError('Evaluator not found');
    },

    async score(workspaceId, evaluator, scoring) {
      const config = checkedConfig(evaluator.type, evaluator.config);
      await checkReferences(tools, workspaceId, evaluator.type, config);
      return scoreCase({ type: evaluator.type, config }, scoring, tools, workspaceId);
    },
  };
}
