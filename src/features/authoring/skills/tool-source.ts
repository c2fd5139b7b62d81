import type { ToolDefinition } from '../../../core/json-columns.js';
import type { ToolImplementation, ToolSource } from '../../../llm/tool-registry.js';
import type { SkillService } from './service.js';

/** OpenAI's rule for function names (the strictest of the providers): letters, digits, _ and -, 64 at most. */
function toolNameOf(skillName: string): string {
  const name = skillName
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return name === '' ? 'skill' : name;
}

function inputOf(argument: unknown): string {
  if (typeof argument === 'object' && argument !== null && 'input' in argument) {
    const { input } = argument as { input: unknown };
    return typeof input === 'string' ? input : JSON.stringify(input);
  }
  return typeof argument === 'string' ? argument : JSON.stringify(argument ?? '');
}

/**
 * Skills as tools (docs/api.md Action "tools"): each Skill of the Action's version becomes a function
 * `{ input: string }` named after the Skill, executed by the run engine's tool loop.
 */
export function skillToolSource(skills: SkillService): ToolSource {
  return async (workspaceId, version) => {
    if (version.skills.length === 0) return {};
    const rows = await skills.findMany(workspaceId, version.skills);
    const definitions: ToolDefinition[] = [];
    const implementations = new Map<string, ToolImplementation>();
    const taken = new Set(version.tools.map((tool) => tool.name));
    for (const row of rows) {
      const type = skills.typeOf(row);
      let name = toolNameOf(row.name);
      for (let suffix = 2; taken.has(name); suffix++) name = `${toolNameOf(row.name)}_${suffix}`;
      taken.add(name);
      const description = row.metadata.find((entry) => entry.name === 'description')?.value;
      definitions.push({
        name,
        description: typeof description === 'string' && description !== '' ? description : type.description,
        parameters: {
          type: 'object',
          properties: { input: { type: 'string', description: type.inputDescription } },
          required: ['input'],
          additionalProperties: false,
        },
      });
      implementations.set(name, (argument, execution) => skills.execute(row, inputOf(argument), execution));
    }
    return { definitions, implementations };
  };
}
