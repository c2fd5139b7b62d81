/**
 * A prompt snapshot: the deployed prompts of a workspace in one JSON file (`lectern prompts export`
 * writes it; the client reads it), so a client starts serving prompts with no network at all.
 */
export const snapshotFormat = 'lectern-prompts';
export const snapshotVersion = 1;

/** One deployed prompt as `GET /v1/prompts` answers it (the DeployedPrompt record). */
export type SnapshotPrompt = {
  action: string;
  slug: string;
  environment: string;
  default_environment: string;
  version: number;
  [field: string]: unknown;
};

export type PromptSnapshot = {
  format: typeof snapshotFormat;
  version: typeof snapshotVersion;
  exported_at: string;
  /** The environment asked for; null: each Action's default. */
  environment: string | null;
  prompts: SnapshotPrompt[];
};

export function makeSnapshot(
  prompts: SnapshotPrompt[],
  environment: string | null,
  now = new Date(),
): PromptSnapshot {
  return {
    format: snapshotFormat,
    version: snapshotVersion,
    exported_at: now.toISOString(),
    environment,
    prompts,
  };
}

/** The snapshot in `text`, or an error saying what is wrong with it. */
export function readSnapshot(text: string): PromptSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the prompt snapshot is not JSON: ${(error as Error).message}`);
  }
  const snapshot = parsed as Partial<PromptSnapshot>;
  if (
    snapshot?.format !== snapshotFormat ||
    snapshot.version !== snapshotVersion ||
    !Array.isArray(snapshot.prompts)
  )
    throw new Error(`not a prompt snapshot (format "${snapshotFormat}", version ${snapshotVersion})`);
  for (const prompt of snapshot.prompts) {
    if (
      typeof prompt?.action !== 'string' ||
      typeof prompt.environment !== 'string' ||
      typeof prompt.version !== 'number'
    )
      throw new Error('a prompt of the snapshot lacks its action, environment or version');
  }
  return snapshot as PromptSnapshot;
}
