/**
 * The scenarios of docs/sync.md, each against the real local service and real disk.
 */
import { mkdir, readdir, rename, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleRemote } from '../../../src/core/sync/remote/bundle-remote';
import { createSyncWorld, type SyncWorld } from './sync-harness';

/** Polls until `check` passes (watcher-driven cycles run on their own time). */
async function eventually(check: () => Promise<void>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Names in a local folder, conflict copies included. */
async function namesIn(world: SyncWorld, dir: string): Promise<string[]> {
  return (await readdir(join(world.root, dir))).sort();
}

let world: SyncWorld;
beforeEach(async () => {
  world = await createSyncWorld();
});
afterEach(async () => {
  await world.close();
});

describe('sync.md scenarios', () => {
  it('1. first sync into an empty folder downloads everything and records the base', async () => {
    await world.remote.write('work/notes/a.md', 'alpha');
    await world.remote.write('work/b.txt', 'beta');
    const engine = world.engine();
    const status = await engine.start();
    expect(status.state).toBe('idle');
    expect(await world.local.read('work/notes/a.md')).toBe('alpha');
    expect(await world.local.read('work/b.txt')).toBe('beta');
    expect(await world.local.exists('instructions.md')).toBe(true);
    expect(await world.local.exists('mcp.json')).toBe(true);
    // A second cycle has nothing to do: the base was recorded.
    const again = await engine.syncNow();
    expect(again.total).toBe(0);
  });

  it('3. a new local file is uploaded once and not downloaded again', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/new.txt', 'mine');
    const status = await engine.syncNow();
    expect(status.total).toBe(1);
    expect(await world.remote.read('work/new.txt')).toBe('mine');
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('4. a new remote file is downloaded once and not uploaded again', async () => {
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/theirs.txt', 'theirs');
    expect((await engine.syncNow()).total).toBe(1);
    expect(await world.local.read('work/theirs.txt')).toBe('theirs');
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('2. first sync with different content on each side keeps both and overwrites nothing', async () => {
    await world.remote.write('work/a.txt', 'remote version');
    await world.local.write('work/a.txt', 'local version!');
    const status = await world.engine().start();
    expect(await world.local.read('work/a.txt')).toBe('local version!');
    expect(await world.remote.read('work/a.txt')).toBe('remote version');
    const copies = (await namesIn(world, 'work')).filter((n) => n.includes('.conflict-remote-'));
    expect(copies).toHaveLength(1);
    expect(await world.local.read(`work/${copies[0]}`)).toBe('remote version');
    expect(status.conflicts.map((c) => c.path)).toEqual(['work/a.txt']);
    // The conflict copy stays local: it is never uploaded.
    expect((await world.remote.list()).filter((p) => p.includes('conflict'))).toEqual([]);
  });

  it('4b. a remote edit that keeps the size is still seen (the listing carries sha256)', async () => {
    await world.remote.write('work/same.txt', 'aaaa');
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/same.txt', 'bbbb');
    expect((await engine.syncNow()).total).toBe(1);
    expect(await world.local.read('work/same.txt')).toBe('bbbb');
  });

  it('upload-only: against a server without the byte route, work/ only uploads and the status says so', async () => {
    await world.remote.write('work/theirs.txt', 'made by the agent');
    await world.local.write('work/mine.txt', 'made here');
    // A server of the spec alone answers a file path with its listing, never its bytes.
    world.proxy.add({
      method: 'GET',
      path: /\/files\/.+$/,
      fault: {
        kind: 'status',
        status: 200,
        body: JSON.stringify({ dir: '/data/work', files: [{ path: 'theirs.txt', size: 17 }] }),
      },
    });
    const status = await world.engine().start();
    expect(status.limitation).toMatch(/only uploads/);
    expect(status.skipped).toContainEqual({ path: 'work/theirs.txt', reason: 'upload-only' });
    expect(await world.remote.read('work/mine.txt')).toBe('made here');
    expect(await world.local.exists('work/theirs.txt')).toBe(false);
  });

  it('5. a local delete deletes the remote file', async () => {
    await world.remote.write('work/a.txt', 'a');
    await world.remote.write('work/b.txt', 'b');
    const engine = world.engine();
    await engine.start();
    await world.local.remove('work/a.txt');
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(await world.remote.list()).toEqual(['work/b.txt']);
  });

  it('6. a remote delete sends the local file to the trash', async () => {
    await world.remote.write('work/a.txt', 'a');
    await world.remote.write('work/b.txt', 'b');
    const engine = world.engine();
    await engine.start();
    await world.remote.remove('work/a.txt');
    await engine.syncNow();
    expect(await world.local.exists('work/a.txt')).toBe(false);
    expect(world.trashed).toEqual(['work/a.txt']);
    expect(await readdir(world.trashDir)).toHaveLength(1);
  });

  it('7. both sides changed to identical content: no conflict, base updated', async () => {
    await world.remote.write('work/a.txt', 'old');
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/a.txt', 'same new text');
    await world.local.write('work/a.txt', 'same new text');
    const status = await engine.syncNow();
    expect(status.conflicts).toEqual([]);
    expect(world.proxy.count('PUT', /\/files\//)).toBe(0);
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('8. both sides changed differently: both versions kept, path flagged, then resolved each way', async () => {
    for (const name of ['mine', 'theirs', 'both']) await world.remote.write(`work/${name}.txt`, 'base');
    const engine = world.engine();
    await engine.start();
    for (const name of ['mine', 'theirs', 'both']) {
      await world.remote.write(`work/${name}.txt`, `remote ${name} edit`);
      await world.local.write(`work/${name}.txt`, `local ${name} edit!`);
    }
    let status = await engine.syncNow();
    expect(status.conflicts.map((c) => c.path).sort()).toEqual([
      'work/both.txt',
      'work/mine.txt',
      'work/theirs.txt',
    ]);
    // Later local edits stay local while the conflict is open.
    await world.local.write('work/mine.txt', 'local mine edit, again');
    await engine.syncNow();
    expect(await world.remote.read('work/mine.txt')).toBe('remote mine edit');

    await engine.resolveConflict('work/mine.txt', 'mine');
    expect(await world.remote.read('work/mine.txt')).toBe('local mine edit, again');
    await engine.resolveConflict('work/theirs.txt', 'theirs');
    expect(await world.local.read('work/theirs.txt')).toBe('remote theirs edit');
    status = await engine.resolveConflict('work/both.txt', 'both');
    expect(await world.local.read('work/both.txt')).toBe('remote both edit');
    const kept = (await namesIn(world, 'work')).filter((n) => n.startsWith('both.mine-'));
    expect(kept).toHaveLength(1);
    expect(await world.remote.read(`work/${kept[0]}`)).toBe('local both edit!');
    expect(status.conflicts).toEqual([]);
    expect((await namesIn(world, 'work')).filter((n) => n.includes('.conflict-remote-'))).toEqual([]);
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('9. deleted on one side, modified on the other: the modified file survives (both directions)', async () => {
    await world.remote.write('work/keep-local-edit.txt', 'v1');
    await world.remote.write('work/keep-remote-edit.txt', 'v1');
    await world.remote.write('work/other.txt', 'x');
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/keep-local-edit.txt', 'v2 local');
    await world.remote.remove('work/keep-local-edit.txt');
    await world.remote.write('work/keep-remote-edit.txt', 'v2 remote');
    await world.local.remove('work/keep-remote-edit.txt');
    await engine.syncNow();
    expect(await world.remote.read('work/keep-local-edit.txt')).toBe('v2 local');
    expect(await world.local.read('work/keep-remote-edit.txt')).toBe('v2 remote');
  });

  it('10. an editor atomic save (temp file, then rename over) is one upload and no delete', async () => {
    await world.remote.write('work/doc.md', 'first');
    const engine = world.engine({ watch: true, debounceMs: 100 });
    await engine.start();
    const putsBefore = world.proxy.count('PUT', /\/files\//);
    await world.local.write('work/.doc.md.tmp-4242', 'second, saved atomically');
    await rename(join(world.root, 'work/.doc.md.tmp-4242'), join(world.root, 'work/doc.md'));
    await eventually(async () =>
      expect(await world.remote.read('work/doc.md')).toBe('second, saved atomically'),
    );
    await engine.syncNow();
    expect(world.proxy.count('PUT', /\/files\//) - putsBefore).toBe(1);
    expect(world.proxy.count('DELETE', /\/files\//)).toBe(0);
    expect(await world.remote.list()).toEqual(['work/doc.md']);
  });

  it('11. a folder of 100 files renamed: the guard asks first, then the remote matches', async () => {
    const engine = world.engine();
    for (let i = 0; i < 100; i += 1) await world.local.write(`work/old/f${i}.txt`, `file ${i}`);
    await engine.start();
    expect(await world.remote.list()).toHaveLength(100);
    await rename(join(world.root, 'work/old'), join(world.root, 'work/new'));
    const paused = await engine.syncNow();
    expect(paused.state).toBe('paused');
    expect(paused.pendingDeletes).toMatchObject({ side: 'remote', deletes: 100 });
    expect(world.proxy.count('DELETE', /\/files\//)).toBe(0);
    const settled = await engine.confirmDeletes();
    expect(settled.state).toBe('idle');
    const remote = await world.remote.list();
    expect(remote).toHaveLength(100);
    expect(remote.every((p) => p.startsWith('work/new/'))).toBe(true);
    expect(await world.remote.read('work/new/f42.txt')).toBe('file 42');
  });

  it('12. a file edited while its upload runs is picked up by the next cycle, nothing lost', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/live.txt', 'edit one');
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/live\.txt$/,
      times: 1,
      fault: {
        kind: 'tap',
        before: async () => {
          await new Promise((r) => setTimeout(r, 20));
          await world.local.write('work/live.txt', 'edit two, made during the upload');
        },
      },
    });
    await engine.syncNow();
    expect(await world.remote.read('work/live.txt')).toBe('edit one');
    await engine.syncNow();
    expect(await world.remote.read('work/live.txt')).toBe('edit two, made during the upload');
  });

  it('13. 60% of local files deleted: the cycle pauses and no remote delete happens', async () => {
    for (let i = 0; i < 10; i += 1) await world.remote.write(`work/f${i}.txt`, `file ${i}`);
    const engine = world.engine();
    await engine.start();
    for (let i = 0; i < 6; i += 1) await world.local.remove(`work/f${i}.txt`);
    for (const name of ['instructions.md', 'mcp.json']) await world.local.remove(name);
    const status = await engine.syncNow();
    expect(status.state).toBe('paused');
    expect(status.message).toMatch(/would delete 8 of 12 files/);
    expect(world.proxy.count('DELETE', /\/files\//)).toBe(0);
    expect(await world.remote.list()).toHaveLength(10);
  });

  it('14. an empty or failing remote listing with a synced base aborts and deletes nothing', async () => {
    await world.remote.write('work/a.txt', 'a');
    await world.remote.write('work/b.txt', 'b');
    const engine = world.engine();
    await engine.start();
    world.proxy.add({
      method: 'GET',
      path: /\/files\/?$/,
      fault: { kind: 'rewrite-json', rewrite: (body) => ({ ...(body as object), files: [] }) },
    });
    let status = await engine.syncNow();
    expect(status.state).toBe('error');
    expect(status.message).toMatch(/came back empty/);
    world.proxy.clear();
    world.proxy.add({
      method: 'GET',
      path: /\/files\/?$/,
      fault: { kind: 'status', status: 500, body: '{"error":"boom"}' },
    });
    status = await engine.syncNow();
    expect(status.state).toBe('error');
    expect(status.message).toMatch(/Could not list/);
    expect(world.trashed).toEqual([]);
    expect(await world.local.read('work/a.txt')).toBe('a');
    world.proxy.clear();
    expect((await engine.syncNow()).state).toBe('idle');
  });

  it('15. a 503 with Retry-After on list or upload backs off, keeps the base, and succeeds later', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/a.txt', 'retry me');
    world.proxy.add({
      method: 'GET',
      path: /\/files\/?$/,
      times: 1,
      fault: { kind: 'status', status: 503, retryAfter: 1 },
    });
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/a\.txt$/,
      times: 2,
      fault: { kind: 'status', status: 503, retryAfter: 1 },
    });
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(await world.remote.read('work/a.txt')).toBe('retry me');
    expect(world.proxy.count('PUT', /\/files\/a\.txt$/)).toBe(3);
    // A failure that outlasts the retries leaves the path's base untouched; the next cycle succeeds.
    await world.local.write('work/a.txt', 'second version');
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/a\.txt$/,
      fault: { kind: 'status', status: 500, body: '{"error":"down"}' },
    });
    const failed = await engine.syncNow();
    expect(failed.state).toBe('error');
    expect(failed.failures.map((f) => f.path)).toEqual(['work/a.txt']);
    world.proxy.clear();
    expect((await engine.syncNow()).state).toBe('idle');
    expect(await world.remote.read('work/a.txt')).toBe('second version');
  });

  it('17. a download shorter than listed is discarded and the local file is untouched', async () => {
    await world.remote.write('work/a.txt', 'original');
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/a.txt', 'a much longer remote version');
    world.proxy.add({
      method: 'GET',
      path: /\/files\/a\.txt$/,
      times: 1,
      fault: { kind: 'truncate', keepBytes: 5 },
    });
    const status = await engine.syncNow();
    expect(status.state).toBe('error');
    expect(await world.local.read('work/a.txt')).toBe('original');
    expect(await namesIn(world, 'work')).toEqual(['a.txt']);
    expect((await engine.syncNow()).state).toBe('idle');
    expect(await world.local.read('work/a.txt')).toBe('a much longer remote version');
  });

  it('18. a 12 MB local file is reported too large and never uploaded', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/big.bin', '');
    await truncate(join(world.root, 'work/big.bin'), 12 * 1024 * 1024);
    const status = await engine.syncNow();
    expect(status.skipped).toEqual([{ path: 'work/big.bin', reason: 'too-large' }]);
    expect(world.proxy.count('PUT', /\/files\//)).toBe(0);
    expect(await world.remote.list()).toEqual([]);
  });

  it('19. hostile remote names are refused and nothing is written outside the root', async () => {
    const engine = world.engine();
    await engine.start();
    const hostile = ['../../x', '/etc/x', 'a\\..\\b', 'C:x', 'nul\u0000byte'];
    world.proxy.add({
      method: 'GET',
      path: /\/files\/?$/,
      fault: {
        kind: 'rewrite-json',
        rewrite: (body) => {
          const listing = body as { dir: string; files: { path: string; size: number }[] };
          return { ...listing, files: [...listing.files, ...hostile.map((path) => ({ path, size: 1 }))] };
        },
      },
    });
    await world.remote.write('work/fine.txt', 'fine');
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(status.skipped.map((s) => s.reason)).toEqual(hostile.map(() => 'invalid-name'));
    expect(await namesIn(world, '..')).not.toContain('x');
    expect(await namesIn(world, 'work')).toEqual(['fine.txt']);
  });

  it('16. killed after an upload but before the base commit: the restart settles with no duplicate and no conflict', async () => {
    const first = world.engine();
    await first.start();
    await first.close();
    await world.local.write('work/crash.txt', 'uploaded, then the process died');
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'sync-child.ts')], {
      env: {
        ...process.env,
        SYNC_URL: world.proxy.url,
        SYNC_TOKEN: world.token,
        SYNC_AGENT: world.agentId,
        SYNC_ROOT: world.root,
        SYNC_STATE: world.stateFile,
      },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // The service stores the upload; the child never hears back, and is killed right then.
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/crash\.txt$/,
      times: 1,
      fault: { kind: 'hold', onHeld: () => child.kill('SIGKILL') },
    });
    expect(await exited).toBe('SIGKILL');
    expect(await world.remote.read('work/crash.txt')).toBe('uploaded, then the process died');

    const putsBefore = world.proxy.count('PUT', /\/files\//);
    const restarted = world.engine();
    const status = await restarted.start();
    expect(status.state).toBe('idle');
    expect(status.conflicts).toEqual([]);
    expect(world.proxy.count('PUT', /\/files\//)).toBe(putsBefore);
    expect(await namesIn(world, 'work')).toEqual(['crash.txt']);
    expect((await restarted.syncNow()).total).toBe(0);
  });

  it('20. symlinks (to outside the root, and a loop) are not followed, not uploaded, and cause no error storm', async () => {
    const engine = world.engine();
    await engine.start();
    await mkdir(join(world.root, 'work'), { recursive: true });
    await writeFile(join(world.trashDir, 'outside.txt'), 'outside the root');
    await symlink(join(world.trashDir, 'outside.txt'), join(world.root, 'work/outside-link.txt'));
    await symlink(join(world.root, 'work/loop'), join(world.root, 'work/loop'));
    for (let i = 0; i < 3; i += 1) {
      const status = await engine.syncNow();
      expect(status.state).toBe('idle');
      expect(status.skipped).toEqual([
        { path: 'work/loop', reason: 'symlink' },
        { path: 'work/outside-link.txt', reason: 'symlink' },
      ]);
    }
    expect(world.proxy.count('PUT', /\/files\//)).toBe(0);
  });

  it('21. a case-only rename leaves one remote file with its content intact', async () => {
    await world.remote.write('work/Readme.md', 'read me');
    const engine = world.engine();
    await engine.start();
    await rename(join(world.root, 'work/Readme.md'), join(world.root, 'work/README.md'));
    await engine.syncNow();
    expect(await world.remote.list()).toEqual(['work/README.md']);
    expect(await world.remote.read('work/README.md')).toBe('read me');
    expect(await namesIn(world, 'work')).toEqual(['README.md']);
    expect((await engine.syncNow()).total).toBe(0);
  });

  it("21b. a case-only rename never removes the agent's write under the old name made meanwhile", async () => {
    await world.remote.write('work/Readme.md', 'read me');
    const engine = world.engine();
    await engine.start();
    await rename(join(world.root, 'work/Readme.md'), join(world.root, 'work/README.md'));
    // The agent writes the old name the moment the new one is uploaded, before the old one is removed.
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/README\.md$/,
      fault: { kind: 'tap', before: () => world.remote.write('work/Readme.md', "the agent's edit") },
      times: 1,
    });
    await engine.syncNow();
    expect(await world.remote.read('work/Readme.md')).toBe("the agent's edit");
    expect(await world.remote.read('work/README.md')).toBe('read me');
  });

  it('22. a file replaced by a folder of the same name, and the reverse, end right on both sides', async () => {
    await world.remote.write('work/a', 'file a');
    await world.remote.write('work/b/inner.txt', 'inside b');
    await world.remote.write('work/keep1.txt', '1');
    await world.remote.write('work/keep2.txt', '2');
    const engine = world.engine();
    await engine.start();
    // Locally, the file a becomes a folder.
    await world.local.remove('work/a');
    await world.local.write('work/a/now-a-folder.txt', 'a is a folder now');
    // Remotely, the folder b becomes a file.
    await world.remote.remove('work/b/inner.txt');
    await world.remote.write('work/b', 'b is a file now');
    const status = await engine.syncNow();
    expect(status.message).toBeUndefined();
    expect(status.state).toBe('idle');
    expect(await world.remote.list()).toEqual([
      'work/a/now-a-folder.txt',
      'work/b',
      'work/keep1.txt',
      'work/keep2.txt',
    ]);
    expect(await world.local.read('work/b')).toBe('b is a file now');
    expect(await world.local.read('work/a/now-a-folder.txt')).toBe('a is a folder now');
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('23. one name in NFD locally and NFC remotely is one path, never a duplicate', async () => {
    const nfc = 'work/caf\u00e9.md';
    const nfd = 'work/cafe\u0301.md';
    await world.remote.write(nfc, 'same text');
    await world.local.write(nfd, 'same text');
    const engine = world.engine();
    const status = await engine.start();
    expect(status.conflicts).toEqual([]);
    expect(await world.remote.list()).toEqual([nfc]);
    expect(await namesIn(world, 'work')).toEqual(['cafe\u0301.md']);
    await world.local.write(nfd, 'edited through the NFD name');
    await engine.syncNow();
    expect(await world.remote.list()).toEqual([nfc]);
    expect(await world.remote.read(nfc)).toBe('edited through the NFD name');
  });

  it('24. an invalid mcp.json is refused with a clear message and the remote list is kept', async () => {
    const engine = world.engine();
    await engine.start();
    const before = await world.api.getMcpServers(world.agentId);
    await world.local.write(
      'mcp.json',
      JSON.stringify({ servers: [{ name: 'web', url: 'http://insecure.example' }] }),
    );
    const status = await engine.syncNow();
    expect(status.state).toBe('error');
    expect(status.message).toMatch(/mcp\.json was not uploaded because .*https/);
    expect(world.proxy.count('PUT', /\/mcp$/)).toBe(0);
    expect(await world.api.getMcpServers(world.agentId)).toEqual(before);
    await world.local.write('mcp.json', '{ not json');
    expect((await engine.syncNow()).message).toMatch(/not valid JSON/);
    const good = { servers: [{ name: 'docs', url: 'https://docs.example/mcp' }] };
    await world.local.write('mcp.json', JSON.stringify(good, null, 2));
    expect((await engine.syncNow()).state).toBe('idle');
    const after = await world.api.getMcpServers(world.agentId);
    expect(after.ok && after.value.servers.map((s) => s.name)).toEqual(['docs']);
  });

  it('25. a skill folder added, edited and removed locally is PUT, PUT and DELETE; no frontmatter is explained', async () => {
    const engine = world.engine();
    await engine.start();
    const skill = (text: string) => `---\nname: greet\ndescription: ${text}\n---\n\nSay hello.\n`;
    await world.local.write('skills/greet/SKILL.md', skill('Greets people'));
    await world.local.write('skills/greet/phrases.txt', 'hello\nhola');
    await engine.syncNow();
    expect(world.proxy.count('PUT', /\/skills\/greet$/)).toBeGreaterThanOrEqual(1);
    let skills = await world.api.listSkills(world.agentId);
    expect(skills.ok && skills.value.skills.map((s) => [s.slug, s.description])).toEqual([
      ['greet', 'Greets people'],
    ]);
    const puts = world.proxy.count('PUT', /\/skills\/greet$/);
    await world.local.write('skills/greet/SKILL.md', skill('Greets people warmly'));
    await engine.syncNow();
    expect(world.proxy.count('PUT', /\/skills\/greet$/)).toBe(puts + 1);
    skills = await world.api.listSkills(world.agentId);
    expect(skills.ok && skills.value.skills[0]?.description).toBe('Greets people warmly');
    await world.local.remove('skills/greet');
    await engine.syncNow();
    expect(world.proxy.count('DELETE', /\/skills\/greet$/)).toBe(1);
    skills = await world.api.listSkills(world.agentId);
    expect(skills.ok && skills.value.skills).toEqual([]);

    await world.local.write('skills/plain/SKILL.md', 'No frontmatter here.');
    const status = await engine.syncNow();
    expect(status.state).toBe('error');
    expect(status.message).toMatch(/skills\/plain\/SKILL\.md: .*frontmatter/);
  });

  it('26. bundle agent: a local knowledge file and a remote prompt change both survive in one POSTed bundle', async () => {
    const switched = await world.api.updateAgentConfig(world.agentId, { engine: 'house-lite' });
    expect(switched.ok).toBe(true);
    const engine = world.engine({ remote: new BundleRemote(world.api, world.agentId) });
    await engine.start();
    await world.local.write('knowledge/facts.md', 'The sky is blue.');
    const patched = await world.api.updateAgentConfig(world.agentId, {
      prompt: 'You are a careful assistant.',
    });
    expect(patched.ok).toBe(true);
    const posts = world.proxy.count('POST', /\/bundle$/);
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(world.proxy.count('POST', /\/bundle$/)).toBe(posts + 1);
    expect(await world.local.read('instructions.md')).toBe('You are a careful assistant.');
    const bundle = await world.api.getBundle(world.agentId);
    const files = bundle.ok ? bundle.value.files : [];
    const text = (path: string) =>
      Buffer.from(files.find((f) => f.path === path)?.contentBase64 ?? '', 'base64').toString();
    expect(text('knowledge/facts.md')).toBe('The sky is blue.');
    expect(text('instructions.md')).toBe('You are a careful assistant.');
  });

  it('27. a deleted root folder or a missing marker stops sync and deletes nothing remotely', async () => {
    await world.remote.write('work/a.txt', 'a');
    const engine = world.engine();
    await engine.start();
    await world.local.remove('.agentdesk');
    let status = await engine.syncNow();
    expect(status.state).toBe('error');
    expect(status.message).toMatch(/marker is gone/);
    await world.local.remove('');
    status = await engine.syncNow();
    expect(status.state).toBe('error');
    expect(world.proxy.count('DELETE', /./)).toBe(0);
    expect(await world.remote.list()).toEqual(['work/a.txt']);
  });
});
