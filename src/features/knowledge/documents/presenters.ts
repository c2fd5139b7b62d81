import type { AddedDocumentsResponse, DocumentResponse } from './responses.js';
import type { Document } from './service.js';

/** A Document as the API answers it; `embedding` is always empty in public answers. */
export function presentDocument(document: Document): DocumentResponse {
  return {
    guid: document.id,
    created_at: document.createdAt.toISOString(),
    updated_at: document.updatedAt.toISOString(),
    content: document.content,
    filter: document.filter,
    metadata: document.metadata,
    // The official SDK reads metadata under this name (docs/sdk-compatibility.md).
    meta_data: document.metadata,
    embedding: [],
    embedding_status: document.embeddingStatus,
  };
}

/** The answer to an add: the GUIDs of the Documents the content was split into. */
export function presentAddedDocuments(ids: string[]): AddedDocumentsResponse {
  return { docs: ids, status: 'success' };
}
