import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { UiState } from '../../../shared/bridge';
import { writePrivateJson } from '../../common/private-json-file';
import { setAsideSync } from '../../common/set-aside';

const Id = z.string().min(1).max(200);
/** `ui-state.json`: broken or unknown values fall back to "nothing remembered", one by one. */
const UiStateFile = z.object({
  lastAgentId: Id.nullable().catch(null),
  lastSessionId: Id.nullable().catch(null),
  sidebarWidth: z.number().int().min(120).max(1200).nullable().catch(null),
  sidebarCollapsed: z.boolean().catch(false),
});

export const emptyUiState: UiState = UiStateFile.parse({});

/** A change from the page: only known fields, each of its own type. */
export const UiStatePatch = z.strictObject({
  lastAgentId: Id.nullable().optional(),
  lastSessionId: Id.nullable().optional(),
  sidebarWidth: z.number().int().min(120).max(1200).nullable().optional(),
  sidebarCollapsed: z.boolean().optional(),
});

export async function readUiState(filePath: string): Promise<UiState> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch {
    return emptyUiState; // none yet
  }
  const parsed = UiStateFile.safeParse(parseJson(text));
  if (parsed.success) return parsed.data;
  // Not a JSON object (a torn write, random bytes): set aside under a dated name, and nothing remembered.
  setAsideSync(filePath);
  return emptyUiState;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Written whole (a new file renamed over the old), readable by this user only. */
export async function writeUiState(filePath: string, state: UiState): Promise<void> {
  await writePrivateJson(filePath, state);
}
