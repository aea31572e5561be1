/**
 * Issue 12, items 3, 4, 8, 9 and 10, as a person with everyday tools and a busy agent would meet
 * them: ignored means ignored on both sides, what cannot be carried is reported (never an error),
 * writers settle, a burst ends consistent, names match by NFC, the server's own form of mcp.json
 * is no conflict, and the mass-delete pause holds only the deletes. Real service, real disk.
 */
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SyncWorld, useSyncWorld } from './sync-harness';
import type { SyncEngine, SyncStatus } from '../../../src/core/sync/engine/sync-engine';

let world: SyncWorld;
useSyncWorld((created) => (world = created));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const skipsOf = (status: SyncStatus) => status.skipped.map((s) => `${s.path}: ${s.reason}`).sort();

/** Waits until the engine has been idle with nothing to do. */
async function settled(engine: SyncEngine, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`not settled: ${JSON.stringify(engine.current.message)}`);
}

describe('ignored means outside the sync, on both sides', () => {
  it("never downloads nor deletes the agent's .git/, node_modules/, backups, temp files and .agentdeskignore matches", async () => {
    const agentOwn = [
      'work/.git/HEAD',
      'work/node_modules/x/index.js',
      'work/notes.md~',
      'work/app.log',
      'work/build/out.js',
      'work/.~lock.report.odt#',
    ];
    for (const path of agentOwn) await world.remote.write(path, `the agent's ${path}`);
    await world.local.write('.agentdeskignore', '*.log\nbuild/\n');
    const engine = world.engine();
    await engine.start();
    await engine.syncNow();
    await engine.syncNow();
    for (const path of agentOwn) {
      expect(await world.remote.read(path)).toBe(`the agent's ${path}`);
      expect(await world.local.exists(path)).toBe(false);
    }
  });

  it('never uploads the writers’ temp and lock files (rsync, LibreOffice, Office, vim, JetBrains)', async () => {
    const engine = world.engine();
    await engine.start();
    const temps = [
      'work/.report.md.Xa81Zq',
      'work/.~lock.report.odt#',
      'work/~$report.docx',
      'work/.report.md.swp',
      'work/report.md___jb_tmp___',
    ];
    for (const path of temps) await world.local.write(path, 'temp');
    await engine.syncNow();
    // rsync renames its temp file over the real name 400 ms later.
    await sleep(400);
    await rename(join(world.root, 'work/.report.md.Xa81Zq'), join(world.root, 'work/report.md'));
    await engine.syncNow();
    expect(await world.remote.list()).toEqual(['work/keep.txt', 'work/report.md']);
    expect(world.proxy.count('DELETE', /\/files\//)).toBe(0);
  });
});

describe('what cannot be carried is reported, not failed', () => {
  it('lists empty files, names outside the layout and copy-like names as not synced, and stays idle', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/empty.txt', '');
    await world.local.write('notes.txt', 'at the top, outside the layout');
    await world.local.write('skills/loose.md', 'not inside a skill folder');
    await world.local.write('skills/My Skill/SKILL.md', 'a folder name the API refuses as a slug');
    await world.local.write('work/plan.conflict-remote-20260101-120000.md', 'looks like a copy');
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(status.failures).toEqual([]);
    expect(skipsOf(status)).toEqual([
      'notes.txt: outside-layout',
      'skills/My Skill/SKILL.md: invalid-name',
      'skills/loose.md: outside-layout',
      'work/empty.txt: empty',
      'work/plan.conflict-remote-20260101-120000.md: looks-like-copy',
    ]);
    expect(await world.remote.list()).toEqual(['work/keep.txt']);
  });
});

describe('writers settle', () => {
  it('`cmd > file` (truncate, then the content 400 ms later) uploads once, with the final content', async () => {
    await world.remote.write('work/out.txt', 'old output');
    const engine = world.engine({ watch: true });
    await engine.start();
    await writeFile(join(world.root, 'work/out.txt'), '');
    await sleep(400);
    await writeFile(join(world.root, 'work/out.txt'), 'new output\n');
    await settled(engine, async () => (await world.remote.read('work/out.txt')) === 'new output\n');
    await sleep(500);
    expect(world.proxy.count('PUT', /\/files\/out\.txt$/)).toBe(1);
    expect(engine.current.state).toBe('idle');
  });

  it('a burst like a branch switch (files changed, removed and added mid-cycle) ends consistent', async () => {
    for (let i = 0; i < 30; i += 1) await world.local.write(`work/src/f${i}.txt`, `v1 ${i}`);
    const engine = world.engine();
    await engine.start();
    const cycle = engine.syncNow();
    const burst = (async () => {
      for (let i = 0; i < 30; i += 1) {
        if (i % 3 === 0) await rm(join(world.root, `work/src/f${i}.txt`), { force: true });
        else await world.local.write(`work/src/f${i}.txt`, `v2 ${i}`);
        await world.local.write(`work/src/new${i}.txt`, `new ${i}`);
      }
    })();
    await Promise.all([cycle, burst]);
    await engine.syncNow();
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(status.failures).toEqual([]);
    for (let i = 0; i < 30; i += 1) {
      expect(await world.remote.read(`work/src/new${i}.txt`)).toBe(`new ${i}`);
      expect(await world.remote.read(`work/src/f${i}.txt`)).toBe(i % 3 === 0 ? undefined : `v2 ${i}`);
    }
  });
});

describe('names, bases and guards', () => {
  it('an NFD name on disk is updated in place when the agent edits it (no NFC twin)', async () => {
    const nfd = 'work/cafe\u0301.txt';
    const nfc = 'work/caf\u00e9.txt';
    await world.local.write(nfd, 'first');
    const engine = world.engine();
    await engine.start();
    expect(await world.remote.read(nfc)).toBe('first');
    await world.remote.write(nfc, "the agent's edit");
    await engine.syncNow();
    expect(await world.local.read(nfd)).toBe("the agent's edit");
    const names = (await world.remote.list()).filter((p) => p.startsWith('work/caf'));
    expect(names).toEqual([nfc]);
    expect((await readdir(join(world.root, 'work'))).filter((n) => n.startsWith('caf'))).toEqual([
      'cafe\u0301.txt',
    ]);
  });

  it('editing mcp.json twice gives no false conflict (the server keeps its own form)', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('mcp.json', '{"servers":[]}');
    let status = await engine.syncNow();
    expect(status.failures).toEqual([]);
    await world.local.write('mcp.json', '{"servers":[ ]}\n');
    status = await engine.syncNow();
    expect(status.conflicts).toEqual([]);
    expect(status.failures).toEqual([]);
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('the mass-delete pause holds the deletes and lets every other change go on', async () => {
    for (let i = 0; i < 10; i += 1) await world.local.write(`work/d${i}.txt`, `d${i}`);
    const engine = world.engine();
    await engine.start();
    for (let i = 0; i < 8; i += 1) await world.local.remove(`work/d${i}.txt`);
    await world.local.write('work/added.txt', 'goes on');
    await world.remote.write('work/theirs.txt', "the agent's new file");
    const status = await engine.syncNow();
    expect(status.state).toBe('paused');
    expect(status.pendingDeletes?.deletes).toBe(8);
    expect(await world.remote.read('work/added.txt')).toBe('goes on');
    expect(await world.local.read('work/theirs.txt')).toBe("the agent's new file");
    expect(await world.remote.read('work/d0.txt')).toBe('d0');
    await engine.confirmDeletes();
    expect(await world.remote.read('work/d0.txt')).toBeUndefined();
  });
});
