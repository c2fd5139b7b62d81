import type { OutboundFetch } from '../../../platform/outbound-fetch.js';
import type { SkillType } from './skill-type.js';
import { type ActionRunner, actionSkillType } from './types/action.js';
import { calculatorSkillType } from './types/calculator.js';
import { type ContextSearcher, contextSearchSkillType } from './types/context-search.js';
import { httpRequestSkillType } from './types/http-request.js';

export function createSkillTypes(dependencies: {
  fetch: OutboundFetch;
  searchContext: ContextSearcher;
  runAction: ActionRunner;
}): SkillTypes {
  const types: SkillType[] = [
    httpRequestSkillType(dependencies.fetch),
    contextSearchSkillType(dependencies.searchContext),
    actionSkillType(dependencies.runAction),
    calculatorSkillType,
  ];
  return {
    list: () => types,
    find: (nameOrGuid: string): SkillType | undefined =>
      types.find((type) => type.name === nameOrGuid || type.guid === nameOrGuid.toLowerCase()),
  };
}

/** The skill types of this instance, found by name or by their fixed GUID. */
export interface SkillTypes {
  list(): readonly SkillType[];
  find(nameOrGuid: string): SkillType | undefined;
}
