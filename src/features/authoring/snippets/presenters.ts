import type { DependentRow, SnippetVersionRow, SnippetWithContent } from './repository.js';
import type { SnippetDependentResponse, SnippetResponse, SnippetVersionResponse } from './responses.js';

export function presentSnippet({ snippet, content }: SnippetWithContent): SnippetResponse {
  return {
    guid: snippet.id,
    name: snippet.name,
    folder: snippet.folder,
    description: snippet.description,
    version: snippet.latestVersion,
    content,
    created_at: snippet.createdAt.toISOString(),
    updated_at: snippet.updatedAt.toISOString(),
  };
}

export function presentSnippetVersion(row: SnippetVersionRow): SnippetVersionResponse {
  return {
    version: row.version,
    content: row.content,
    saved_by_id: row.savedById,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentDependent(row: DependentRow): SnippetDependentResponse {
  return { action: row.actionId, slug: row.slug, version: row.version, pinned_version: row.pinnedVersion };
}
