import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The absolute path of a program found on PATH (or given as a path), or null when it is not installed. */
export function findExecutable(command: string, envPath = process.env['PATH'] ?? ''): string | null {
  const candidates = command.includes('/')
    ? [command]
    : envPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.join(d, command));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next folder.
    }
  }
  return null;
}

export function existsDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
