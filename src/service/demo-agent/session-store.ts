import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage } from '../../shared/api';

/** Hidden folder in the workspace where the demo agent keeps its memory. */
export const DEMO_STATE_DIR = '.agentdesk-demo';

/** A message as the demo agent keeps it in its own session files (`text`, not `content`: its format on disk). */
export type DemoMessage = Pick<ChatMessage, 'role'> & { text: string };

/** Everything the demo agent remembers about one session (one conversation). */
export interface DemoSession {
  id: string;
  cwd: string;
  model: string;
  messages: DemoMessage[];
  /** The person chose "always allow" for writes in this session. */
  allowWrites: boolean;
  /** Session token totals, for usage reports. */
  inputTokens: number;
  outputTokens: number;
}

const SAFE_SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Where sessions are kept: the service's private state folder when it gives one, else hidden in the workspace. */
function sessionsDir(cwd: string): string {
  const state = process.env['AGENTDESK_AGENT_STATE'];
  return state ? join(state, 'sessions') : join(cwd, DEMO_STATE_DIR, 'sessions');
}

function sessionFile(cwd: string, id: string): string {
  if (!SAFE_SESSION_ID.test(id)) throw new Error(`Invalid session id: ${JSON.stringify(id)}`);
  return join(sessionsDir(cwd), `${id}.json`);
}

/** Reads a saved session, or null when there is none. */
export async function loadSession(cwd: string, id: string): Promise<DemoSession | null> {
  let text: string;
  try {
    text = await readFile(sessionFile(cwd, id), 'utf8');
  } catch {
    return null;
  }
  const saved = JSON.parse(text) as DemoSession;
  return { ...saved, id, cwd };
}

/** Saves a session; write-then-rename, so the file holds either the old memory or the new one. */
export async function saveSession(session: DemoSession): Promise<void> {
  const file = sessionFile(session.cwd, session.id);
  await mkdir(sessionsDir(session.cwd), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(session, null, 2));
  await rename(temp, file);
}
