import type { SkillResponse, SkillTypeResponse } from './responses.js';
import type { Skill } from './service.js';
import type { SkillType } from './skill-type.js';

/** A Skill as the API answers it: secret values (HTTP headers) appear redacted. */
export function presentSkill(skill: Skill): SkillResponse {
  return {
    guid: skill.id,
    name: skill.name,
    type: skill.type,
    metadata: skill.metadata,
    created_by_id: skill.createdById,
    created_at: skill.createdAt.toISOString(),
    updated_at: skill.updatedAt.toISOString(),
  };
}

/** `GET /v1/skills/types`: each type with its metadata definitions (name, required, type, default value). */
export function presentSkillType(type: SkillType): SkillTypeResponse {
  return {
    guid: type.guid,
    name: type.name,
    description: type.description,
    input: type.inputDescription,
    metadata: type.metadata.map((definition) => ({
      name: definition.name,
      required: definition.required,
      type: definition.type,
      value: definition.value,
      description: definition.description,
      ...(definition.options && { options: definition.options }),
      ...(definition.minimum !== undefined && { minimum: definition.minimum }),
      ...(definition.maximum !== undefined && { maximum: definition.maximum }),
    })),
  };
}
