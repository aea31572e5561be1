/**
 * A write refused because its disk is full (issue 38): Node's ENOSPC, EDQUOT (the user's quota on that disk),
 * SQLite's SQLITE_FULL and PostgreSQL's disk_full (53100), found on the error or the errors it wraps
 * (`cause`), since stores and HTTP layers wrap what the file system said.
 */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** The disk-full code on `error` or what it wraps, or undefined for any other error. */
export function diskFullCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isDiskFull(error: unknown): boolean {
  return diskFullCode(error) !== undefined;
}
