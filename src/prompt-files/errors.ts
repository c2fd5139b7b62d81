// The CLI's own refusals (`lectern prompts …`): printed as one line, never as a stack.

/** A bad file: its path, line and what is wrong, as `push` prints it before it writes anything. */
export class PromptFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    reason: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${reason}`);
  }
}

/** A path the CLI will not write or remove: outside the directory, or through a symbolic link. */
export class UnsafePathError extends Error {
  constructor(relative: string, reason: string) {
    super(`${relative}: ${reason}; nothing outside the prompts directory is written or removed`);
  }
}
