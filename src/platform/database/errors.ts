/** PostgreSQL's unique_violation, from pg or PGlite, possibly wrapped by Drizzle as `cause`. */
export function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * An error raised by the database (a SQLSTATE code, or Drizzle's wrapper quoting the statement and
 * its parameters): its text is for the server log only.
 */
export function isDatabaseError(error: unknown): boolean {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (name === 'DrizzleQueryError' || (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))) return true;
  }
  return false;
}
