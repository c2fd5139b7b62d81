import { descriptionDefinition, type SkillType, truncateOutput } from '../skill-type.js';

/** Finds the best chunks of one Context for a query (the Contexts feature answers). */
export type ContextSearcher = (
  workspaceId: string,
  contextId: string,
  query: { text: string; limit: number },
) => Promise<string[]>;

/** Retrieval as a tool: the model decides when to look something up and with which words. */
export function contextSearchSkillType(search: ContextSearcher): SkillType {
  return {
    guid: '6f1d3a52-4c1e-4b8a-9e0a-000000000002',
    name: 'context_search',
    description: 'Searches a Context (a document library) and answers its best-matching passages.',
    inputDescription: 'What to look up, in a few words or a question.',
    metadata: [
      {
        name: 'context',
        required: true,
        type: 'context',
        value: null,
        description: 'The GUID of the Context to search.',
      },
      {
        name: 'number_of_results',
        required: false,
        type: 'integer',
        value: 3,
        minimum: 1,
        maximum: 20,
        description: 'How many passages to answer.',
      },
      descriptionDefinition,
    ],
    async execute(settings, input, execution) {
      const passages = await search(execution.workspaceId, settings.context as string, {
        text: input,
        limit: settings.number_of_results as number,
      });
      if (passages.length === 0) return 'No passages matched.';
      return truncateOutput(passages.map((passage, index) => `[${index + 1}] ${passage}`).join('\n\n'));
    },
  };
}
