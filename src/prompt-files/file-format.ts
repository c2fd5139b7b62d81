import { createHash } from 'node:crypto';
import { isMap, parseDocument, stringify } from 'yaml';
import { canonicalJson } from '../core/canonical-json.js';
import { PromptFileError } from './errors.js';

export { PromptFileError };

// The files of `lectern prompts pull|push` (docs/prompts-as-code.md#the-files): YAML front matter
// between two `---` lines, then the template exactly as saved, then one newline. Keys are written
// in one order and empty ones left out, so a file changes only where the prompt changed.

type Message = { role: 'system' | 'user' | 'assistant'; content: string };
type Tool = { name: string; description?: string; parameters?: Record<string, unknown> };

/** What an Action's file holds: the fields a save sends, and the template. */
export type ActionFile = {
  app: string;
  name: string;
  description: string;
  model: string;
  model_config: Record<string, unknown>;
  system_message: string | null;
  messages: Message[] | null;
  contexts: string[];
  skills: string[];
  tools: Tool[];
  template: string;
};

/** Where each environment runs which version: written for the reader, never read back. */
export type Deployments = Record<string, number>;

export type SnippetFile = { description: string; content: string };

const delimiter = '---';

function frontMatter(fields: Record<string, unknown>): string {
  const kept = Object.fromEntries(
    Object.entries(fields).filter(
      ([, value]) =>
        value !== null &&
        value !== undefined &&
        !(Array.isArray(value) && value.length === 0) &&
        !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0),
    ),
  );
  return stringify(kept, { lineWidth: 0, aliasDuplicateObjects: false });
}

function withBody(fields: Record<string, unknown>, body: string): string {
  return `${delimiter}\n${frontMatter(fields)}${delimiter}\n${body}\n`;
}

export function writeActionFile(file: ActionFile, deployments: Deployments): string {
  const { template, ...fields } = file;
  return withBody({ ...fields, deployments }, template);
}

export function writeSnippetFile(file: SnippetFile): string {
  return withBody({ description: file.description }, file.content);
}

/**
 * The file as `split` reads it: without a byte-order mark (an editor's, not the prompt's), and with
 * `\r\n` read as `\n` only where the file itself was converted (its first line ends so: an editor
 * or git's autocrlf). A file `pull` wrote has `\n` lines, so a template's own `\r\n` stays as it is.
 */
function normalizedText(text: string): string {
  const unmarked = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return unmarked.startsWith(`${delimiter}\r\n`) ? unmarked.replace(/\r\n/g, '\n') : unmarked;
}

/** The front matter's fields; a YAML error (an alias bomb among them) names the file, never a stack. */
function fieldsOf(path: string, document: ReturnType<typeof parseDocument>): Record<string, unknown> {
  try {
    return (document.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  } catch (error) {
    throw new PromptFileError(
      path,
      undefined,
      `the front matter cannot be read: ${(error as Error).message}`,
    );
  }
}

/** Splits a file into its front matter (parsed) and its body; errors name the file's own lines. */
function split(path: string, text: string): { fields: Record<string, unknown>; body: string } {
  const normalized = normalizedText(text);
  if (!normalized.startsWith(`${delimiter}\n`))
    throw new PromptFileError(path, 1, 'a prompt file starts with a "---" line, then YAML front matter');
  const end = normalized.indexOf(`\n${delimiter}\n`, delimiter.length);
  const emptyEnd = normalized.startsWith(`${delimiter}\n${delimiter}\n`);
  if (end === -1 && !emptyEnd)
    throw new PromptFileError(path, undefined, 'the front matter has no closing "---" line');
  const yamlText = emptyEnd ? '' : normalized.slice(delimiter.length + 1, end + 1);
  const bodyStart = emptyEnd ? 2 * (delimiter.length + 1) : end + delimiter.length + 2;
  const document = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  const [error] = document.errors;
  // Line 1 of the front matter is line 2 of the file.
  if (error) {
    // The library's own "at line N" counts the front matter's lines: the file's line is said once, before.
    const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new PromptFileError(path, (error.linePos?.[0]?.line ?? 0) + 1, reason);
  }
  if (yamlText.trim() !== '' && !isMap(document.contents))
    throw new PromptFileError(path, 2, 'the front matter must be a map of fields (key: value)');
  const fields = fieldsOf(path, document);
  let body = normalized.slice(bodyStart);
  if (body.endsWith('\n')) body = body.slice(0, -1);
  return { fields, body };
}

function text(path: string, fields: Record<string, unknown>, name: string, required = false): string {
  const value = fields[name];
  if (value === undefined || value === null) {
    if (required) throw new PromptFileError(path, undefined, `"${name}" is missing from the front matter`);
    return '';
  }
  if (typeof value !== 'string') throw new PromptFileError(path, undefined, `"${name}" must be text`);
  return value;
}

function list<Item>(path: string, fields: Record<string, unknown>, name: string): Item[] {
  const value = fields[name] ?? [];
  if (!Array.isArray(value)) throw new PromptFileError(path, undefined, `"${name}" must be a list`);
  return value as Item[];
}

const actionKeys = new Set([
  'app',
  'name',
  'description',
  'model',
  'model_config',
  'system_message',
  'messages',
  'contexts',
  'skills',
  'tools',
  'deployments',
]);

export function readActionFile(path: string, source: string): ActionFile {
  const { fields, body } = split(path, source);
  for (const key of Object.keys(fields))
    if (!actionKeys.has(key))
      throw new PromptFileError(path, undefined, `"${key}" is not a field of a prompt file`);
  const config = fields.model_config ?? {};
  if (typeof config !== 'object' || Array.isArray(config))
    throw new PromptFileError(path, undefined, '"model_config" must be a map');
  const messages = fields.messages ?? null;
  if (messages !== null && !Array.isArray(messages))
    throw new PromptFileError(path, undefined, '"messages" must be a list of { role, content }');
  const system = fields.system_message ?? null;
  if (system !== null && typeof system !== 'string')
    throw new PromptFileError(path, undefined, '"system_message" must be text');
  return {
    app: text(path, fields, 'app', true),
    name: text(path, fields, 'name', true),
    description: text(path, fields, 'description'),
    model: text(path, fields, 'model', true),
    model_config: config as Record<string, unknown>,
    system_message: system,
    messages: messages as Message[] | null,
    contexts: list(path, fields, 'contexts'),
    skills: list(path, fields, 'skills'),
    tools: list(path, fields, 'tools'),
    template: body,
  };
}

export function readSnippetFile(path: string, source: string): SnippetFile {
  const { fields, body } = split(path, source);
  for (const key of Object.keys(fields))
    if (key !== 'description')
      throw new PromptFileError(path, undefined, `"${key}" is not a field of a snippet file`);
  return { description: text(path, fields, 'description'), content: body };
}

/** What a file means, hashed: `push` compares it with the hash it had when pulled. */
export function contentHash(content: (ActionFile | SnippetFile) & { folder: string }): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}
