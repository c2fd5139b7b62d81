import { templateParseError, templateVariables } from '@lectern/prompt-templates';
import { ValidationError } from '../../../errors.js';
import type { BlockDefinition } from './schemas.js';

/** `{{blocks.NAME}}` and `{{blocks["NAME"]}}` references of an input template. */
const blockReference = /blocks\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*["']([^"']*)["']\s*\])/g;

/** The variables an input template may read: the trigger input and earlier blocks' outputs. */
const mappingVariables = new Set(['input', 'blocks']);

/**
 * docs/api.md#how-the-parts-behave rules a block list must follow, checked before anything is stored: unique names, an
 * Action on every `action` block, one `output` block at most and never first, input templates that
 * parse and only name earlier blocks. (Whether the Actions exist is the caller's check.)
 */
export function checkBlocks(blocks: BlockDefinition[]): void {
  const earlier = new Set<string>();
  let outputBlocks = 0;
  blocks.forEach((block, index) => {
    const field = `blocks.${index}`;
    if (earlier.has(block.name))
      throw new ValidationError(`${field}.name`, `another block is named "${block.name}"`);
    if (block.type === 'action' && !block.action) {
      throw new ValidationError(`${field}.action`, 'an action block needs the GUID or slug of an Action');
    }
    if (block.type === 'output') {
      if (block.action || block.input) {
        throw new ValidationError(
          field,
          'an output block takes no action or input: its value is the previous block’s output',
        );
      }
      if (index === 0) throw new ValidationError(field, 'an output block needs a block before it');
      outputBlocks += 1;
      if (outputBlocks > 1) throw new ValidationError(field, 'a Workflow has one output block at most');
    }
    for (const [variable, source] of Object.entries(block.input ?? {})) {
      const inputField = `${field}.input.${variable}`;
      const parseError = templateParseError(source);
      if (parseError) throw new ValidationError(inputField, `template does not parse: ${parseError}`);
      for (const name of templateVariables(source)) {
        if (!mappingVariables.has(name)) {
          throw new ValidationError(
            inputField,
            `"${name}" is unknown: write {{input.KEY}} or {{blocks.NAME}}`,
          );
        }
      }
      for (const match of source.matchAll(blockReference)) {
        const referenced = match[1] ?? match[2]!;
        if (!earlier.has(referenced)) {
          throw new ValidationError(inputField, `"${referenced}" is not the name of an earlier block`);
        }
      }
    }
    earlier.add(block.name);
  });
}
