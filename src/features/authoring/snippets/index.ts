export {
  createSnippetLibrary,
  type SnippetLibrary,
  type SnippetResolution,
  type TemplateFields,
} from './library.js';
export { createSnippetRepository } from './repository.js';
export { createSnippetService, type SnippetService } from './service.js';
