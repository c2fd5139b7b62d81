import type { ContextTexts } from '../../knowledge/contexts/index.js';
import { SkillFailedError } from './skill-type.js';
import type { ContextSearcher } from './types/context-search.js';

/** A `context_search` Skill's search: its one Context, which may have been deleted since. */
export function createContextSearcher(contextTexts: ContextTexts): ContextSearcher {
  return async (workspaceId, contextId, query) => {
    const { found, texts } = await contextTexts(workspaceId, [contextId], query);
    if (found === 0) throw new SkillFailedError('the Context this Skill searches no longer exists');
    return texts;
  };
}
