export { createActionRunner, createContextSearcher } from './adapters.js';
export { createSkillRepository, type SkillRow as Skill } from './repository.js';
export { createSkillService, presentSkill, type SkillService } from './service.js';
export { createSkillTypes } from './skill-types.js';
export { skillToolSource } from './tool-source.js';
