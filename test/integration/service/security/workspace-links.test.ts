import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentWorkspaceDir } from '../../../../src/service/workspace/agent-folders';
import type { ReceivedEvent } from '../../../support/sse';
import { createHarness, type Harness } from '../turns/harness';

// The real service and the real demo agent over stdio: a workspace holding a folder link, a file link and a
// dangling link must not let the agent's `write` (or `read`) reach anything outside the workspace.
let h: Harness;
let outside: string;
let workspace: string;
beforeAll(async () => {
  h = await createHarness();
  outside = await mkdtemp(join(tmpdir(), 'agentdesk-outside-'));
  workspace = agentWorkspaceDir(h.service.dataDir, h.agentId);
  await mkdir(workspace, { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'outside secret');
  await symlink(outside, join(workspace, 'folder-link'));
  await symlink(join(outside, 'secret.txt'), join(workspace, 'file-link.txt'));
  await symlink(join(outside, 'planted.txt'), join(workspace, 'dangling.txt'));
}, 60_000);
afterAll(async () => {
  await h?.close();
  await rm(outside, { recursive: true, force: true });
});

const replyOf = (events: ReceivedEvent[]) =>
  events
    .filter((e) => e.event === 'chunk')
    .map((e) => (e.data as { text: string }).text)
    .join('');

async function say(content: string): Promise<string> {
  const id = await h.conversation();
  const stream = await h.events(id);
  try {
    const sent = await h.send(id, { content });
    expect(sent.status).toBe(202);
    return replyOf(await stream.untilDone(sent.body.turnId as string));
  } finally {
    stream.close();
  }
}

const write = (path: string) => `write ${path}\n\`\`\`\nplanted by the agent\n\`\`\``;

describe('the demo agent stays inside its workspace', () => {
  it.each(['folder-link/planted.txt', 'file-link.txt', 'dangling.txt'])(
    'does not write through %s',
    async (path) => {
      const reply = await say(write(path));
      expect(reply).not.toMatch(/I wrote/);
      expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
    },
  );

  it.each(['folder-link/secret.txt', 'file-link.txt'])('does not read through %s', async (path) => {
    expect(await say(`read ${path}`)).not.toContain('outside secret');
  });

  it('still writes and reads a plain file of the workspace', async () => {
    expect(await say(write('notes/plain.txt'))).toMatch(/I wrote/);
    expect(readFileSync(join(workspace, 'notes/plain.txt'), 'utf8')).toContain('planted by the agent');
    expect(await say('read notes/plain.txt')).toContain('planted by the agent');
  });
});

describe('the service stays inside the workspace for the agent', () => {
  it('does not save attachments through a link planted at the attachments folder', async () => {
    const { buildPromptBlocks, ATTACHMENTS_DIR } =
      await import('../../../../src/service/engine/prompt-blocks');
    await symlink(outside, join(workspace, ATTACHMENTS_DIR));
    const attachment = { name: 'note.bin', mimeType: 'application/octet-stream', data: 'aGVsbG8=' };
    await expect(buildPromptBlocks('hi', [attachment], {}, workspace, 'batch-1')).rejects.toThrow(/link/);
    expect(existsSync(join(outside, 'batch-1'))).toBe(false);
    await rm(join(workspace, ATTACHMENTS_DIR));
  });
});
