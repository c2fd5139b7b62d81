export { createContextSearcher } from './adapters.js';
export { presentSkill } from './presenters.js';
export { createSkillRepository } from './repository.js';
export { createSkillService, type Skill, type SkillService } from './service.js';
export { createSkillTypes } from './skill-types.js';
export { skillToolSource } from './tool-source.js';
export type { ActionRunner } from './types/action.js';
