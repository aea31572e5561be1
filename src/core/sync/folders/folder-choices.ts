/**
 * Which folder syncs which agent, remembered in the app's data folder (`sync/folders.json`, never a
 * secret), so the folders start again with the app.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SyncFolder {
  agentId: string;
  root: string;
  /** The agent's name when the folder was chosen, shown while it cannot start. */
  name?: string;
}

/** `~/AgentDesk/<agent name>`, with characters no disk accepts taken out. */
export function defaultSyncFolder(agentName: string, home = homedir()): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  const safe = agentName.replace(/[<>:"/\\|?*\u0000-\u001f]/g, '-').trim() || 'agent';
  return join(home, 'AgentDesk', safe);
}

/** The remembered choices; a missing or unreadable file is none (the person chooses again). */
export async function readFolderChoices(file: string): Promise<SyncFolder[]> {
  const text = await readFile(file, 'utf8').catch(() => '[]');
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed)
      ? parsed
          .filter((f): f is SyncFolder => typeof f?.agentId === 'string' && typeof f?.root === 'string')
          .map(({ agentId, root, name }) => ({
            agentId,
            root,
            ...(typeof name === 'string' ? { name } : {}),
          }))
      : [];
  } catch {
    return [];
  }
}

/** Written whole through a temp file, so a crash leaves the old list or the new one. */
export async function writeFolderChoices(file: string, folders: SyncFolder[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  await writeFile(temp, JSON.stringify(folders, null, 2) + '\n');
  await rename(temp, file);
}
