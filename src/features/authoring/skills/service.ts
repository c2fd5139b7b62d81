import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError } from '../../../errors.js';
import type { SecretBox } from '../../../platform/secrets.js';
import { type ReferenceChecks, resolveSettings, settingsOf, storedForm } from './metadata.js';
import type { SkillRepository, SkillRow } from './repository.js';
import type { CreateSkillInput } from './schemas.js';
import type { SkillExecution, SkillType } from './skill-type.js';
import type { SkillTypes } from './skill-types.js';

/** A configured tool an Action's model may call (an HTTP request, a Context search, another Action…). */
export type Skill = SkillRow;

export interface SkillService {
  /** The skill types of this instance. */
  types(): readonly SkillType[];
  create(workspaceId: string, createdById: string, input: CreateSkillInput): Promise<Skill>;
  /** The Skill, or 404 — also for one of another workspace. */
  require(workspaceId: string, id: string): Promise<Skill>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<Skill>>;
  rename(workspaceId: string, id: string, name: string): Promise<Skill>;
  remove(workspaceId: string, id: string): Promise<void>;
  /** The workspace's Skills among `ids`, in the order of `ids` (unknown ones left out). */
  findMany(workspaceId: string, ids: string[]): Promise<Skill[]>;
  /** Runs one Skill with a text input; the answer is text (what a model gets as the tool result). */
  execute(skill: Skill, input: string, execution: SkillExecution): Promise<string>;
  /** `POST /v1/skills/{skill}/prompt`: the Skill on its own, outside any Action. */
  prompt(workspaceId: string, id: string, prompt: string): Promise<string>;
  /** The Skill's type; a 404 when this version no longer has it. */
  typeOf(skill: Skill): SkillType;
}

export function createSkillService(dependencies: {
  repository: SkillRepository;
  types: SkillTypes;
  secretBox: SecretBox;
  references: ReferenceChecks;
}): SkillService {
  const { repository, types, secretBox, references } = dependencies;

  async function require(workspaceId: string, id: string): Promise<Skill> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Skill not found');
    return row;
  }

  function typeOf(row: Skill): SkillType {
    const type = types.find(row.type);
    // Types are code; a stored Skill of a type this version no longer has cannot run.
    if (!type) throw new NotFoundError('Type not found');
    return type;
  }

  async function execute(row: Skill, input: string, execution: SkillExecution): Promise<string> {
    const secrets = row.sealedMetadata ? JSON.parse(secretBox.decrypt(row.sealedMetadata)) : undefined;
    return typeOf(row).execute(settingsOf(row.metadata, secrets), input, execution);
  }

  return {
    types: () => types.list(),
    require,
    execute,
    typeOf,

    async create(workspaceId, createdById, input) {
      const type = types.find(input.type);
      if (!type) throw new NotFoundError('Type not found');
      const settings = await resolveSettings(type, input.metadata ?? [], workspaceId, references);
      const { entries, secrets } = storedForm(type, settings);
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        name: input.name,
        type: type.name,
        metadata: entries,
        sealedMetadata: secrets ? secretBox.encrypt(JSON.stringify(secrets)) : null,
        createdById,
      });
      return row;
    },

    list(workspaceId, pagination) {
      return repository.list(workspaceId, pagination.skip, pagination.limit);
    },

    async rename(workspaceId, id, name) {
      const row = await repository.rename(workspaceId, id, name);
      if (!row) throw new NotFoundError('Skill not found');
      return row;
    },

    async remove(workspaceId, id) {
      if (!(await repository.remove(workspaceId, id))) throw new NotFoundError('Skill not found');
    },

    async findMany(workspaceId, ids) {
      const rows = await repository.findMany(workspaceId, ids);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async prompt(workspaceId, id, prompt) {
      return execute(await require(workspaceId, id), prompt, { workspaceId, depth: 0 });
    },
  };
}
