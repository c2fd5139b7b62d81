import { randomUUID } from 'node:crypto';
import { isGuid } from '../../../core/guid.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { AppError, ConflictError, NotFoundError, VersionConflictError } from '../../../errors.js';
import { isUniqueViolation } from '../../../platform/database/errors.js';
import type { SnippetLibrary } from './library.js';
import type {
  DependentRow,
  SnippetKey,
  SnippetRepository,
  SnippetVersionRow,
  SnippetWithContent,
} from './repository.js';

export type NewSnippet = { name: string; content: string; folder?: string; description?: string };
export type SnippetChanges = {
  content?: string;
  folder?: string;
  description?: string;
  baseVersion?: number;
};

export interface SnippetService {
  create(workspaceId: string, input: NewSnippet, savedById: string | null): Promise<SnippetWithContent>;
  get(workspaceId: string, guidOrName: string): Promise<SnippetWithContent>;
  list(workspaceId: string, pagination: Pagination, folder?: string): Promise<Page<SnippetWithContent>>;
  update(
    workspaceId: string,
    guidOrName: string,
    changes: SnippetChanges,
    savedById: string | null,
  ): Promise<{ snippet: SnippetWithContent; savedVersion: number | undefined }>;
  versions(workspaceId: string, guidOrName: string, pagination: Pagination): Promise<Page<SnippetVersionRow>>;
  dependents(workspaceId: string, guidOrName: string): Promise<DependentRow[]>;
  remove(workspaceId: string, guidOrName: string): Promise<SnippetWithContent>;
}

/** A saved snippet version, told in the transaction of the save (the webhooks' `snippet.version_saved`). */
export type SnippetVersionSaved = (
  workspaceId: string,
  data: { snippet: string; name: string; version: number; saved_by_id: string | null },
) => Promise<void>;

const keyOf = (guidOrName: string): SnippetKey =>
  isGuid(guidOrName) ? { id: guidOrName } : { name: guidOrName };

export function createSnippetService(dependencies: {
  repository: SnippetRepository;
  library: SnippetLibrary;
  versionSaved?: SnippetVersionSaved;
}): SnippetService {
  const { repository, library, versionSaved = async () => undefined } = dependencies;
  async function requireSnippet(workspaceId: string, guidOrName: string): Promise<SnippetWithContent> {
    const found = await repository.find(workspaceId, keyOf(guidOrName));
    if (!found) throw new NotFoundError('Snippet not found');
    return found;
  }

  return {
    async create(workspaceId, input, savedById) {
      await library.check(workspaceId, input.name, input.content);
      const id = randomUUID();
      await repository
        .insert(
          {
            id,
            workspaceId,
            name: input.name,
            folder: input.folder ?? '',
            description: input.description ?? '',
            latestVersion: 1,
          },
          input.content,
          savedById,
        )
        .catch((error: unknown) => {
          if (isUniqueViolation(error))
            throw new ConflictError(`name: a snippet of this workspace is named "${input.name}"`);
          throw error;
        });
      await versionSaved(workspaceId, { snippet: id, name: input.name, version: 1, saved_by_id: savedById });
      return requireSnippet(workspaceId, id);
    },

    get: requireSnippet,

    async list(workspaceId, pagination, folder) {
      return repository.list(workspaceId, pagination.skip, pagination.limit, folder);
    },

    async update(workspaceId, guidOrName, changes, savedById) {
      const current = await requireSnippet(workspaceId, guidOrName);
      if (changes.content !== undefined && changes.content !== current.content)
        await library.check(workspaceId, current.snippet.name, changes.content);
      const outcome = await repository.update(
        workspaceId,
        current.snippet.id,
        { ...changes, savedById },
        changes.baseVersion,
      );
      if (!outcome) throw new NotFoundError('Snippet not found');
      if ('conflict' in outcome)
        throw new VersionConflictError(
          `Snippet "${current.snippet.name}"`,
          outcome.conflict,
          changes.baseVersion!,
        );
      const { id, name } = current.snippet;
      if (outcome.saved !== undefined)
        await versionSaved(workspaceId, {
          snippet: id,
          name,
          version: outcome.saved,
          saved_by_id: savedById,
        });
      return { snippet: await requireSnippet(workspaceId, id), savedVersion: outcome.saved };
    },

    async versions(workspaceId, guidOrName, pagination) {
      const { snippet } = await requireSnippet(workspaceId, guidOrName);
      return repository.listVersions(snippet.id, pagination.skip, pagination.limit);
    },

    async dependents(workspaceId, guidOrName) {
      const { snippet } = await requireSnippet(workspaceId, guidOrName);
      return repository.dependents(workspaceId, snippet);
    },

    async remove(workspaceId, guidOrName) {
      const found = await requireSnippet(workspaceId, guidOrName);
      const deployed = await repository.deployedDependents(workspaceId, found.snippet);
      if (deployed.length > 0)
        throw new AppError(
          409,
          'conflict',
          `Snippet "${found.snippet.name}" is included by deployed versions of ${deployed.map((slug) => `"${slug}"`).join(', ')}; deploy versions without it first`,
          deployed.map((slug) => ({ action: slug })),
        );
      if (!(await repository.softDelete(workspaceId, found.snippet.id)))
        throw new NotFoundError('Snippet not found');
      return found;
    },
  };
}
