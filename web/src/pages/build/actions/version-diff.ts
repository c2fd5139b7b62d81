import { diffLines } from 'diff';
import type { VersionFields } from '../../../api';

/** What two versions are compared by: a saved version's fields, or the editor's draft as it would be saved. */
export type VersionContent = Omit<VersionFields, 'snippets'>;

/** A version as the text people compare: model, settings, templates, attachments and tools. */
export function versionText(version: VersionContent): string {
  const lines = [`model: ${version.model}`];
  for (const [name, value] of Object.entries(version.model_config ?? {})) {
    lines.push(`${name}: ${JSON.stringify(value)}`);
  }
  if (version.system_message) lines.push('', '# system', version.system_message);
  if (version.prompt) lines.push('', '# prompt', version.prompt);
  for (const message of version.messages ?? []) lines.push('', `# ${message.role}`, message.content);
  if (version.contexts.length) lines.push('', `contexts: ${version.contexts.join(', ')}`);
  if (version.skills.length) lines.push('', `skills: ${version.skills.join(', ')}`);
  if (version.tools.length) lines.push('', '# tools', JSON.stringify(version.tools, null, 2));
  return `${lines.join('\n')}\n`;
}

export type DiffRow = {
  left?: { number: number; text: string };
  right?: { number: number; text: string };
  kind: 'same' | 'changed' | 'removed' | 'added';
};

/**
 * Side-by-side rows of a line diff: unchanged lines face each other, a removed run faces the added
 * run that replaced it, and what is left over faces a blank.
 */
export function sideBySide(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let leftNumber = 1;
  let rightNumber = 1;
  const lines = (value: string) => value.replace(/\n$/, '').split('\n');
  const parts = diffLines(before, after);
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    if (!part.added && !part.removed) {
      for (const text of lines(part.value)) {
        rows.push({
          kind: 'same',
          left: { number: leftNumber++, text },
          right: { number: rightNumber++, text },
        });
      }
      continue;
    }
    const removed = part.removed ? lines(part.value) : [];
    const next = parts[index + 1];
    const added = part.added ? lines(part.value) : next?.added ? lines(next.value) : [];
    if (part.removed && next?.added) index += 1;
    for (let line = 0; line < Math.max(removed.length, added.length); line += 1) {
      const left = removed[line];
      const right = added[line];
      rows.push({
        kind:
          left !== undefined && right !== undefined ? 'changed' : left !== undefined ? 'removed' : 'added',
        ...(left !== undefined && { left: { number: leftNumber++, text: left } }),
        ...(right !== undefined && { right: { number: rightNumber++, text: right } }),
      });
    }
  }
  return rows;
}
