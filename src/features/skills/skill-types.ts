import type { OutboundFetch } from '../../platform/outbound-fetch.js';
import type { SkillType } from './skill-type.js';
import { type ActionRunner, actionSkillType } from './types/action.js';
import { calculatorSkillType } from './types/calculator.js';
import { type ContextSearcher, contextSearchSkillType } from './types/context-search.js';
import { httpRequestSkillType } from './types/http-request.js';

/** The skill types of this instance, found by name or by their fixed GUID. */
export function createSkillTypes(dependencies: {
  fetch: OutboundFetch;
  searchContext: ContextSearcher;
  runAction: ActionRunner;
}) {
  const types: SkillType[] = [
    httpRequestSkillType(dependencies.fetch),
    contextSearchSkillType(dependencies.searchContext),
    actionSkillType(dependencies.runAction),
    calculatorSkillType,
  ];
  return {
    list: (): readonly SkillType[] => types,
    find: (nameOrGuid: string): SkillType | undefined =>
      types.find((type) => type.name === nameOrGuid || type.guid === nameOrGuid.toLowerCase()),
  };
}

export type SkillTypes = ReturnType<typeof createSkillTypes>;

/** `GET /v1/skills/types`: each type with its metadata definitions (name, required, type, default value). */
export function presentSkillType(type: SkillType) {
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
