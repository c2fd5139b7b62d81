import { z } from 'zod';

/**
 * Where an Action or a snippet is filed: `""` (the root) or `/`-separated segments of 1–64
 * letters, digits, spaces, `_`, `.` and `-`, none made of dots alone, so a folder is never a path
 * out of the prompts directory that `lectern prompts pull` writes.
 */
const segment = /^[A-Za-z0-9 _.-]{1,64}$/;

export function folderProblem(folder: string): string | undefined {
  if (folder === '') return undefined;
  if (folder.length > 1_000) return 'at most 1,000 characters';
  for (const part of folder.split('/')) {
    if (!segment.test(part))
      return 'segments of 1–64 letters, digits, spaces, "_", "." and "-", separated by "/"';
    if (/^\.+$/.test(part)) return 'a segment may not be made of dots alone';
  }
  return undefined;
}

export const folderPath = z
  .string()
  .superRefine((folder, context) => {
    const problem = folderProblem(folder);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .describe('"" (the root) or "/"-separated segments, e.g. "support/billing"');

/** The folder and every folder above it, nearest last: `a/b/c` → `a`, `a/b`, `a/b/c`. */
export function foldersAlong(folder: string): string[] {
  if (folder === '') return [];
  const parts = folder.split('/');
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}
