import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsxCommand } from '../../../support/tsx-command';

export interface RecordedEvent {
  event: 'spawn' | 'session/new' | 'prompt';
  pid?: number;
  mcpServers?: unknown[];
  model?: string;
  text?: string;
}

/** The recording agent runs like the demo agent in dev: this Node with the tsx loader. */
export function recordingEngine(recordFile: string): { command: string[]; env: Record<string, string> } {
  const script = fileURLToPath(new URL('./fixtures/recording-agent.ts', import.meta.url));
  return { command: tsxCommand(script), env: { RECORD_FILE: recordFile } };
}

export function readRecord(recordFile: string): RecordedEvent[] {
  if (!existsSync(recordFile)) return [];
  return readFileSync(recordFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedEvent);
}

export const spawns = (recordFile: string) => readRecord(recordFile).filter((e) => e.event === 'spawn');
