import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * How the first-party ACP agents (the demo agent, the model agent) keep each session (one
 * conversation) so `session/load` restores it after their process restarts: one JSON file per
 * session, in the private state folder the service gives (`AGENTDESK_AGENT_STATE`, beside the
 * workspace), else in a hidden folder of the workspace.
 */
export interface SessionFiles<T extends { id: string; cwd: string }> {
  /** A saved session, or null when there is none. */
  load(cwd: string, id: string): Promise<T | null>;
  /** Write-then-rename, so the file holds either the old session or the new one. */
  save(session: T): Promise<void>;
}

const SAFE_SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function sessionFiles<T extends { id: string; cwd: string }>(where: {
  /** The folder under the service's state folder. */
  stateFolder: string;
  /** The hidden folder of the workspace when the service gives no state folder. */
  workspaceFolder: string;
}): SessionFiles<T> {
  const folder = (cwd: string) => {
    const state = process.env['AGENTDESK_AGENT_STATE'];
    return state ? join(state, where.stateFolder) : join(cwd, where.workspaceFolder, 'sessions');
  };
  const file = (cwd: string, id: string) => {
    if (!SAFE_SESSION_ID.test(id)) throw new Error(`Invalid session id: ${JSON.stringify(id)}`);
    return join(folder(cwd), `${id}.json`);
  };
  return {
    async load(cwd, id) {
      let text: string;
      try {
        text = await readFile(file(cwd, id), 'utf8');
      } catch {
        return null;
      }
      return { ...(JSON.parse(text) as T), id, cwd };
    },
    async save(session) {
      const target = file(session.cwd, session.id);
      await mkdir(folder(session.cwd), { recursive: true });
      const temp = `${target}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(session, null, 2));
      await rename(temp, target);
    },
  };
}
