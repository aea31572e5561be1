import { appendFileSync, chmodSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LogLevel, LogSink } from '../core/log/logger';

export interface RotatingLog {
  /** The file being written now. */
  path: string;
  /** A sink for createLogger: lines arrive already redacted. */
  sink: LogSink;
}

/**
 * A log file in `<dir>/agentdesk.log`, rotated to `.1`, `.2`... when it passes `maxBytes`, keeping
 * `keep` old files. Written synchronously: the shell logs little, and a crash must not lose the last line.
 * Only this user can read it (0600, in a 0700 folder).
 */
export function openRotatingLog(
  dir: string,
  options: { maxBytes?: number; keep?: number } = {},
): RotatingLog {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = options.keep ?? 3;
  const path = join(dir, 'agentdesk.log');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let size = existsSync(path) ? statSync(path).size : 0;

  const rotate = (): void => {
    for (let i = keep - 1; i >= 1; i -= 1) {
      if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
    }
    if (existsSync(path)) renameSync(path, `${path}.1`);
    size = 0;
  };

  const sink = (level: LogLevel, line: string): void => {
    const text = `${new Date().toISOString()} ${level.toUpperCase()} ${line.replace(/\r?\n/g, '\n  ')}\n`;
    const bytes = Buffer.byteLength(text);
    try {
      if (size > 0 && size + bytes > maxBytes) rotate();
      appendFileSync(path, text, { mode: 0o600 });
      if (size === 0) chmodSync(path, 0o600);
      size += bytes;
    } catch {
      // A full or read-only disk must not take the app down with it; the console still has the line.
    }
  };
  return { path, sink };
}
