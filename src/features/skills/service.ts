import { randomUUID } from 'node:crypto';
import type { Pagination } from '../../core/pagination.js';
import { NotFoundError } from '../../errors.js';
import type { SecretBox } from '../../platform/secrets.js';
import { type ReferenceChecks, resolveSettings, settingsOf, storedForm } from './metadata.js';
import type { SkillRepository, SkillRow } from './repository.js';
import type { CreateSkillInput } from './schemas.js';
import type { SkillExecution, SkillType } from './skill-type.js';
import type { SkillTypes } from './skill-types.js';

/** A Skill as the API answers it: secret values (HTTP headers) appear redacted. */
export function presentSkill(row: SkillRow) {
  return {
    guid: row.id,
    name: row.name,
    type: row.type,
    metadata: row.metadata,
    created_by_id: row.createdById,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function createSkillService(dependencies: {
  repository: SkillRepository;
  types: SkillTypes;
  secretBox: SecretBox;
  references: ReferenceChecks;
}) {
  const { repository, types, secretBox, references } = dependencies;

  async function require(workspaceId: string, id: string): Promise<SkillRow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Skill not found');
    return row;
  }

  function typeOf(row: SkillRow): SkillType {
    const type = types.find(row.type);
    // Types are code; a stored Skill of a type this version no longer has cannot run.
    if (!type) throw new NotFoundError('Type not found');
    return type;
  }

  return {
    types: () => types.list(),

    async create(workspaceId: string, createdById: string, input: CreateSkillInput) {
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
      return presentSkill(row);
    },

    async get(workspaceId: string, id: string) {
      return presentSkill(await require(workspaceId, id));
    },

    async list(workspaceId: string, pagination: Pagination) {
      const { rows, total } = await repository.list(workspaceId, pagination.skip, pagination.limit);
      return { rows: rows.map(presentSkill), total };
    },

    async rename(workspaceId: string, id: string, name: string) {
      const row = await repository.rename(workspaceId, id, name);
      if (!row) throw new NotFoundError('Skill not found');
      return presentSkill(row);
    },

    async remove(workspaceId: string, id: string) {
      if (!(await repository.remove(workspaceId, id))) throw new NotFoundError('Skill not found');
      return { guid: id, deleted: true };
    },

    /** The workspace's Skills among `ids`, in the order of `ids` (unknown ones left out). */
    async findMany(workspaceId: string, ids: string[]): Promise<SkillRow[]> {
      const rows = await repository.findMany(workspaceId, ids);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** Runs one Skill with a text input; the answer is text (what a model gets as the tool result). */
    async execute(row: SkillRow, input: string, execution: SkillExecution): Promise<string> {
      const secrets = row.sealedMetadata ? JSON.parse(secretBox.decrypt(row.sealedMetadata)) : undefined;
      return typeOf(row).execute(settingsOf(row.metadata, secrets), input, execution);
    },

    /** `POST /v1/skills/{skill}/prompt`: the Skill on its own, outside any Action. */
    async prompt(workspaceId: string, id: string, prompt: string) {
      const row = await require(workspaceId, id);
      return { msg: await this.execute(row, prompt, { workspaceId, depth: 0 }) };
    },

    typeOf,
  };
}

export type SkillService = ReturnType<typeof createSkillService>;
