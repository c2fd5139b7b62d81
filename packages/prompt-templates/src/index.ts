export {
  createRenderBudget,
  MissingVariableError,
  type RenderBudget,
  RenderBudgetError,
  renderTemplate,
  runRenderMemory,
  runRenderTimeMs,
  templateEngine,
  templateParseError,
  templateVariables,
} from './engine.js';
export {
  IncludeError,
  type IncludeReference,
  resolveIncludes,
  snippetNamePattern,
  templateIncludes,
} from './includes.js';
export {
  type BuiltPrompt,
  buildPromptMessages,
  contextVariable,
  type PromptInput,
  PromptInputError,
  type PromptParts,
  type TemplateMessage,
  type TemplateVersion,
} from './prompt.js';
export {
  makeSnapshot,
  type PromptSnapshot,
  readSnapshot,
  type SnapshotPrompt,
  snapshotFormat,
  snapshotVersion,
} from './snapshot.js';
