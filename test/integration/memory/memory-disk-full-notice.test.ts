import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import { memoryFile } from '../../../src/core/host/memory/profile-memory';
import { startService } from '../../../src/service/index';
import type { ConversationUpdate, MemoryNotice } from '../../../src/shared/bridge';
import { anotherServerHost } from '../../support/another-server-host';
import { hasTurnEnded } from '../../support/conversation-updates';
import { personBrowser } from '../../support/person-browser';
import { mountSmallDisk, type SmallDisk } from '../../support/small-disk';

// The app's chat memory on a disk that fills, said in words (issue 38, item 3): the real host (browser mode's,
// its own data folder on a real 16 MB tmpfs) against the real local service. A turn's reply that the memory
// cannot write makes the host say which disk is full, to the main window (onMemoryNotice) and to Settings →
// Chat memory (getMemoryInfo); the reply is kept and written by itself once there is space, and the words go.
// Mounting needs root on Linux: elsewhere the test is skipped and its name says why.
const disk = await mountSmallDisk(16);
const cannot = 'cannot' in disk ? disk.cannot : undefined;
const small = disk as SmallDisk;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (!cannot) await small.unmount();
});

describe('the chat memory’s disk fills', () => {
  it.skipIf(Boolean(cannot))(
    `says which disk is full, keeps the reply, and clears once it is written${cannot ? ` (skipped: ${cannot})` : ''}`,
    async () => {
      const serviceDir = await mkdtemp(join(tmpdir(), 'agentdesk-full-svc-'));
      const service = await startService({ dataDir: serviceDir, port: 0 });
      cleanups.push(
        () => rm(serviceDir, { recursive: true, force: true }),
        () => service.close(),
      );
      const dataDir = join(small.dir, 'data');
      await mkdir(dataDir);
      const host = await anotherServerHost({
        dataDir,
        secrets: createMemorySecretStore(),
        openBrowser: personBrowser(() => service),
      });
      cleanups.push(() => host.close());
      await host.addCustomProfile({ baseUrl: service.url, clientId: 'agentdesk-desktop' });
      expect((await host.signIn()).ok).toBe(true);
      const agents = await host.listAgents();
      const agentId = agents.ok ? agents.value.agents.find((a) => a.protocol === 'acp')!.id : '';
      const created = await host.createConversation(agentId);
      const sessionId = created.ok ? created.value.id : '';
      const notices: MemoryNotice[] = [];
      host.onMemoryNotice((notice) => notices.push(notice));
      expect(notices).toEqual([{}]);

      const updates: ConversationUpdate[] = [];
      host.onConversationEvent(agentId, sessionId, (u) => updates.push(u));
      await expect
        .poll(() => updates.some((u) => u.kind === 'connection' && u.connection.state === 'open'))
        .toBe(true);
      await small.fill();
      const sent = await host.sendMessage(agentId, sessionId, {
        content: 'echo a reply the full disk cannot take '.repeat(40),
        permissionMode: 'preguntar',
        firstTurn: true,
      });
      if (!sent.ok) throw new Error(sent.error.message);
      await expect.poll(() => hasTurnEnded(updates, sent.value.turnId), { timeout: 45_000 }).toBe(true);

      // Said in words naming the disk, in the main window and in Settings → Chat memory.
      const profiles = await host.listProfiles();
      const memoryDir = dirname(memoryFile(dataDir, profiles.ok ? profiles.value.activeProfileId! : ''));
      const words = `The disk holding the chat memory (${memoryDir}) is full.`;
      await expect.poll(() => notices.at(-1)?.diskFull ?? '', { timeout: 15_000 }).toContain(words);
      const info = await host.getMemoryInfo();
      expect(info.ok && info.value.diskFull).toContain(words);
      expect(info.ok && info.value.diskFull).toContain('they are safe on the server');

      // Space again: the kept reply is written by itself and the words go.
      await small.free();
      await expect.poll(() => notices.at(-1), { timeout: 20_000 }).toEqual({});
      const after = await host.getMemoryInfo();
      expect(after.ok && after.value.diskFull).toBeUndefined();
      const opened = await host.openConversation(agentId, sessionId);
      if (!opened.ok) throw new Error(opened.error.message);
      expect(opened.value.messages.at(-1)?.detail?.turnId).toBe(sent.value.turnId);
    },
    90_000,
  );
});
