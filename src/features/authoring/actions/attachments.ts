import { ValidationError } from '../../../errors.js';
import type { AttachmentValidator } from './service.js';

/** Finds the workspace's resources of one kind among GUIDs (unknown ones left out). */
export type ResourceLookup = {
  findMany(workspaceId: string, ids: string[]): Promise<Array<{ id: string }>>;
};

/**
 * Every Context and Skill an Action version attaches must exist in its workspace; otherwise the save
 * is a 400 naming the field and the missing GUIDs.
 */
export function createAttachmentValidator(lookups: {
  contexts: ResourceLookup;
  skills: ResourceLookup;
}): AttachmentValidator {
  async function requireAll(workspaceId: string, ids: string[], lookup: ResourceLookup, field: string) {
    if (ids.length === 0) return;
    const found = new Set((await lookup.findMany(workspaceId, ids)).map((row) => row.id));
    const missing = ids.filter((id) => !found.has(id));
    const noun = field === 'contexts' ? 'Context' : 'Skill';
    if (missing.length > 0) throw new ValidationError(field, `no ${noun} has the GUID ${missing.join(', ')}`);
  }
  return async (workspaceId, version) => {
    await requireAll(workspaceId, version.contexts ?? [], lookups.contexts, 'contexts');
    await requireAll(workspaceId, version.skills ?? [], lookups.skills, 'skills');
  };
}
