import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { StopReason } from '@agentclientprotocol/sdk/unstable';
import { DEMO_STATE_DIR } from './session-store';
import type { DemoTurnStream } from './turn-stream';

/** `list files`: a `read` tool call over the workspace, then the listing. */
export async function listFiles(stream: DemoTurnStream): Promise<StopReason> {
  const id = `call_${randomUUID()}`;
  const cwd = stream.ctx.session.cwd;
  await stream.tool(id, { title: 'List files', kind: 'read', status: 'in_progress', path: cwd }, true);
  const files = await listWorkspace(cwd);
  const listing = files.length > 0 ? files.join('\n') : '(the workspace is empty)';
  await stream.tool(id, { status: 'completed', detail: `${files.length} entries` });
  return stream.sayLast(`The workspace has ${files.length} entries:\n${listing}`);
}

/** Workspace entries (folders end in `/`), without the demo agent's own state folder. */
async function listWorkspace(root: string, maxEntries = 200): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (out.length >= maxEntries) return;
      if (
        depth === 0 &&
        (entry.name === DEMO_STATE_DIR || entry.name === '.git' || entry.name === 'node_modules')
      ) {
        continue;
      }
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        out.push(`${rel}/`);
        if (depth < 4) await walk(join(dir, entry.name), `${rel}/`, depth + 1);
      } else {
        out.push(rel);
      }
    }
  };
  await walk(root, '', 0);
  return out;
}
