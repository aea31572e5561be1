import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in for stepping the system clock, for the real processes a test starts (the service, the CLI,
 * the host): they run with `clock-shift-preload.mjs` preloaded and see Date moved by what `set` writes, at once,
 * while their monotonic clocks and timers go on. See clock-shift-preload.mjs for what it does and does not move.
 */
export interface ClockShift {
  /** Environment for a child process: the preload and the file it reads. */
  env: Record<string, string>;
  /**
   * Moves every such process's wall clock to `offsetMs` from the real one (0 puts it back); resolves once
   * they all read it (the preload reads the file again within 10 ms).
   */
  set(offsetMs: number): Promise<void>;
  /** The wall clock those processes read now. */
  now(): number;
  remove(): void;
}

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

export function clockShift(): ClockShift {
  const dir = mkdtempSync(join(tmpdir(), 'agentdesk-clock-'));
  const file = join(dir, 'offset');
  let offset = 0;
  writeFileSync(file, '0');
  const preload = join(import.meta.dirname, 'clock-shift-preload.mjs');
  const inherited = process.env['NODE_OPTIONS'] ?? '';
  return {
    env: {
      AGENTDESK_CLOCK_SHIFT_FILE: file,
      NODE_OPTIONS: `${inherited} --import ${preload}`.trim(),
    },
    async set(offsetMs) {
      offset = offsetMs;
      writeFileSync(file, String(offsetMs));
      await new Promise((resolve) => setTimeout(resolve, 30));
    },
    now: () => Date.now() + offset,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
