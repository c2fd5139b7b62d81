import { ValidationError } from '../../../../errors.js';
import { descriptionDefinition, type SkillExecution, type SkillType } from '../skill-type.js';

/** Runs an Action with a text input and answers its output (the run engine answers). */
export type ActionRunner = (
  execution: SkillExecution,
  action: string,
  request: { input: string; environment?: string },
) => Promise<string>;

/** How many Actions deep skills may nest: an Action whose skill runs an Action whose skill runs… */
export const maximumSkillDepth = 3;

/** Another Action as a tool: a specialist prompt the model can delegate to. */
export function actionSkillType(runAction: ActionRunner): SkillType {
  return {
    guid: '6f1d3a52-4c1e-4b8a-9e0a-000000000003',
    name: 'action',
    description: 'Runs another Action with the given text as its input and answers its output.',
    inputDescription: 'The text the Action receives as its input.',
    metadata: [
      {
        name: 'action',
        required: true,
        type: 'action',
        value: null,
        description: 'The GUID or slug of the Action to run.',
      },
      {
        name: 'environment',
        required: false,
        type: 'string',
        value: null,
        description:
          'The environment whose deployed version runs; the Action’s default environment when absent.',
      },
      descriptionDefinition,
    ],
    async execute(settings, input, execution) {
      if (execution.depth >= maximumSkillDepth) {
        throw new ValidationError(
          'skills',
          `skills may run Actions at most ${maximumSkillDepth} levels deep (an Action probably calls itself)`,
        );
      }
      const environment = settings.environment as string | null;
      return runAction(execution, settings.action as string, {
        input,
        ...(environment && { environment }),
      });
    },
  };
}
