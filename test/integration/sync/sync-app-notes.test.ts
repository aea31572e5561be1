/**
 * Issue 26, items 1 and 2 as the app's sync panel gets them: the app's SyncManager (what the
 * panel's bridge reads) on a real folder, against the real service behind the recording proxy and
 * a TCP forwarder this test stops (test/support/tcp-switch.ts). The status says the server cannot
 * be reached, in the CLI's words, until it is back, then notes that it is; a conflict whose copy
 * the person deleted is settled as "keep mine", with a note saying so. A state file damaged while the app
 * was closed (issue 38, item 4) is set aside at its next start, said in a note, and the folder compared in full.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { SyncManager } from '../../../src/core/sync/folders/sync-manager';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startTcpSwitch, type TcpSwitch } from '../../support/tcp-switch';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
let hostProxy: FaultProxy;
let line: TcpSwitch;
beforeAll(async () => {
  hostProxy = await startFaultProxy(w.service.url);
  line = await startTcpSwitch(hostProxy.url);
});
afterAll(() => hostProxy?.close());

function appManager(dataDir = join(w.scratch, `app-${process.hrtime.bigint()}`)) {
  const api = createApiClient({ baseUrl: line.url, auth: staticTokenSource(w.token) });
  return new SyncManager({
    dataDir,
    api,
    trash: async () => undefined,
  });
}

describe("the app's sync panel status", () => {
  it("says the server can't be reached and the changes are kept, then that it is back", async () => {
    const app = appManager();
    try {
      expect((await app.setFolder(w.agentId, w.folder)).status.state).toBe('idle');
      await line.down();
      await w.writeLocal('work/while-down.txt', 'kept until the server is back');
      const down = await w.until(
        async () => app.get(w.agentId)?.status.unreachable && app.get(w.agentId)!.status,
      );
      expect(down.unreachable!.server).toBe(line.url);
      expect(down.message).toBe(
        `Can't reach ${line.url}; your changes are kept and will be sent when it is back.`,
      );
      await line.up();
      const back = await w.until(async () => {
        const status = app.get(w.agentId)!.status;
        return !status.unreachable && status.notices?.some((n) => n.text.startsWith('Reached'))
          ? status
          : undefined;
      }, 30_000);
      expect(back.notices!.at(-1)!.text).toBe(`Reached ${line.url} again; your changes are being sent.`);
      expect(await w.until(() => w.readRemote('while-down.txt'))).toBe('kept until the server is back');
    } finally {
      await line.up().catch(() => undefined);
      await app.close();
    }
  }, 90_000);

  it('a conflict whose copy the person deleted is settled as keep mine, with a note', async () => {
    const app = appManager();
    try {
      await w.writeRemote('c/both.txt', 'the agent wrote this');
      await w.writeLocal('work/c/both.txt', 'I wrote this instead');
      const first = await app.setFolder(w.agentId, w.folder);
      expect(first.status.conflicts.map((c) => c.path)).toEqual(['work/c/both.txt']);
      const copy = (await readdir(join(w.folder, 'work/c'))).find((n) => n.includes('.conflict-remote-'))!;
      await rm(join(w.folder, 'work/c', copy));
      await writeFile(join(w.folder, 'work/c/both.txt'), 'mine, edited again');
      const settled = await w.until(async () => {
        const status = app.get(w.agentId)!.status;
        return status.conflicts.length === 0 && status.notices?.length ? status : undefined;
      }, 30_000);
      expect(settled.notices!.map((n) => n.text)).toContain(
        `Resolved work/c/both.txt: kept mine, because the agent's copy (work/c/${copy}) was deleted. The agent's version is in the version history.`,
      );
      expect(
        await w.until(async () =>
          (await w.readRemote('c/both.txt')) === 'mine, edited again' ? true : undefined,
        ),
      ).toBe(true);
    } finally {
      await app.close();
    }
  }, 90_000);

  it('a state file damaged while the app was closed is set aside and said in a note', async () => {
    const dataDir = join(w.scratch, `app-${process.hrtime.bigint()}`);
    let app = appManager(dataDir);
    try {
      await w.writeLocal('work/kept.txt', 'on both sides');
      expect((await app.setFolder(w.agentId, w.folder)).status.state).toBe('idle');
    } finally {
      await app.close();
    }
    const [state] = (await readdir(join(dataDir, 'sync'))).filter((n) => n.endsWith('.db'));
    await writeFile(join(dataDir, 'sync', state!), randomBytes(8192));
    app = appManager(dataDir);
    try {
      await app.start();
      const status = await w.until(async () => {
        const now = app.get(w.agentId)?.status;
        return now?.state === 'idle' && now.notices?.length ? now : undefined;
      });
      expect(status.notices!.map((n) => n.text)).toEqual([
        expect.stringMatching(/^The sync's record of this folder was damaged \(the header is not SQLite's/),
      ]);
      expect(status.conflicts).toEqual([]);
      expect(await w.readRemote('kept.txt')).toBe('on both sides');
      expect((await readdir(join(dataDir, 'sync'))).filter((n) => /\.damaged-.*\.db$/.test(n))).toHaveLength(
        1,
      );
    } finally {
      await app.close();
    }
  }, 90_000);
});
