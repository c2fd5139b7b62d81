import { isGuid } from '../../../core/guid.js';
import type { SkillMetadataEntry } from '../../../core/json-columns.js';
import { ValidationError } from '../../../errors.js';
import type { MetadataDefinition, SkillType } from './skill-type.js';

/** A metadata entry as a create request gives it (`name`, `required`, `value`, `type`). */
export type MetadataEntryInput = { name: string; value?: unknown; required?: boolean; type?: string };

/** Whether referenced resources exist in the workspace (a Context to search, an Action to run). */
export type ReferenceChecks = {
  contexts: { exists(workspaceId: string, contextId: string): Promise<boolean> };
  /** The Action by GUID or slug, or undefined when the workspace has no such Action. */
  actions: { find(workspaceId: string, guidOrSlug: string): Promise<{ guid: string } | undefined> };
};

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const maximumLengths: Record<string, number> = { string: 2_000, url: 2_048, text: 100_000 };

function coerceHeaders(value: unknown): Record<string, string> | string {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return 'must be an object of header names to strings';
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'must be an object of header names to strings';
  }
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(parsed)) {
    if (!headerName.test(name)) return `"${name}" is not a valid header name`;
    if (typeof headerValue !== 'string' || /[\r\n\0]/.test(headerValue)) {
      return `the value of "${name}" must be a string on one line`;
    }
    headers[name] = headerValue;
  }
  return headers;
}

/** The value in its stored form, or the reason it is not acceptable. */
function coerce(definition: MetadataDefinition, value: unknown): { value: unknown } | { reason: string } {
  switch (definition.type) {
    case 'integer': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isInteger(number)) return { reason: 'must be an integer' };
      if (definition.minimum !== undefined && number < definition.minimum)
        return { reason: `must be at least ${definition.minimum}` };
      if (definition.maximum !== undefined && number > definition.maximum)
        return { reason: `must be at most ${definition.maximum}` };
      return { value: number };
    }
    case 'select': {
      const option = definition.options?.find(
        (candidate) => typeof value === 'string' && candidate.toLowerCase() === value.toLowerCase(),
      );
      return option ? { value: option } : { reason: `must be one of ${definition.options?.join(', ')}` };
    }
    case 'headers': {
      const headers = coerceHeaders(value);
      return typeof headers === 'string' ? { reason: headers } : { value: headers };
    }
    case 'context':
      return typeof value === 'string' && isGuid(value) ? { value } : { reason: 'must be a Context GUID' };
    case 'action':
      return typeof value === 'string' && value.trim() !== ''
        ? { value: value.trim() }
        : { reason: 'must be an Action GUID or slug' };
    default: {
      if (typeof value !== 'string') return { reason: 'must be a string' };
      const limit = maximumLengths[definition.type] ?? maximumLengths.string!;
      if (value.length > limit) return { reason: `must be at most ${limit} characters` };
      return { value };
    }
  }
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * Checks a create request's metadata entries against the type's definitions (the intended
 * behaviour) and answers every setting, defaults filled in. A bad entry is a 400 naming it.
 */
export async function resolveSettings(
  type: SkillType,
  entries: MetadataEntryInput[],
  workspaceId: string,
  references: ReferenceChecks,
): Promise<Record<string, unknown>> {
  const given = new Map<string, unknown>();
  entries.forEach((entry, index) => {
    if (given.has(entry.name))
      throw new ValidationError(`metadata.${index}.name`, `"${entry.name}" is given twice`);
    if (!type.metadata.some((definition) => definition.name === entry.name)) {
      const known = type.metadata.map((definition) => definition.name).join(', ');
      throw new ValidationError(
        `metadata.${index}.name`,
        `the ${type.name} type has no setting "${entry.name}" (it has ${known})`,
      );
    }
    given.set(entry.name, entry.value);
  });
  const settings: Record<string, unknown> = {};
  for (const definition of type.metadata) {
    const value = given.get(definition.name);
    const field = `metadata.${definition.name}`;
    if (isEmpty(value)) {
      if (definition.required && isEmpty(definition.value)) throw new ValidationError(field, 'is required');
      settings[definition.name] = definition.value;
      continue;
    }
    const coerced = coerce(definition, value);
    if ('reason' in coerced) throw new ValidationError(field, coerced.reason);
    settings[definition.name] = coerced.value;
  }
  const problem = type.check?.(settings);
  if (problem) throw new ValidationError(`metadata.${problem.entry}`, problem.reason);
  for (const definition of type.metadata) {
    const value = settings[definition.name];
    if (typeof value !== 'string') continue;
    if (definition.type === 'context' && !(await references.contexts.exists(workspaceId, value))) {
      throw new ValidationError(`metadata.${definition.name}`, `no Context has the GUID ${value}`);
    }
    if (definition.type === 'action') {
      // Stored by GUID: a later change of the Action's slug must not change what the Skill runs.
      const actionGuid = (await references.actions.find(workspaceId, value))?.guid;
      if (!actionGuid)
        throw new ValidationError(`metadata.${definition.name}`, `no Action has the GUID or slug ${value}`);
      settings[definition.name] = actionGuid;
    }
  }
  return settings;
}

const redacted = '[redacted]';

/**
 * Splits settings into what is stored readable (the API's metadata entries, secret values redacted) and
 * the secret values, which the caller encrypts.
 */
export function storedForm(type: SkillType, settings: Record<string, unknown>) {
  const secrets: Record<string, unknown> = {};
  const entries: SkillMetadataEntry[] = type.metadata.map((definition) => {
    let value = settings[definition.name];
    if (definition.secret && !isEmpty(value)) {
      secrets[definition.name] = value;
      value =
        definition.type === 'headers'
          ? Object.fromEntries(Object.keys(value as object).map((name) => [name, redacted]))
          : redacted;
    }
    return { name: definition.name, required: definition.required, value, type: definition.type };
  });
  return { entries, secrets: Object.keys(secrets).length > 0 ? secrets : undefined };
}

/** The settings a run uses: the stored entries with the decrypted secret values over them. */
export function settingsOf(entries: SkillMetadataEntry[], secrets: Record<string, unknown> | undefined) {
  return { ...Object.fromEntries(entries.map((entry) => [entry.name, entry.value])), ...secrets };
}
