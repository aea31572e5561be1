/**
 * Issue 12, item 1 and 2: the person's editor and the agent write at any moment, not between
 * the engine's steps. A version that moves between the plan and the write becomes a conflict,
 * never an overwrite, and every replaced version is in the history. Real local service, real disk;
 * the fault proxy only runs the other writer at the exact moment a request of the engine passes.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleRemote } from '../../../src/core/sync/remote/bundle-remote';
import { type SyncWorld, useSyncWorld } from './sync-harness';

let world: SyncWorld;
useSyncWorld((created) => (world = created));

const copiesOf = async (stem: string) =>
  (await readdir(join(world.root, 'work'))).filter((n) => n.startsWith(`${stem}.conflict-remote-`));

describe('races with the other writers', () => {
  it("a save that lands while the agent's newer version downloads is kept; the agent's becomes the conflict copy", async () => {
    await world.remote.write('work/a.txt', 'base');
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/a.txt', "agent's newer version");
    // The person saves exactly while the engine fetches the agent's bytes.
    world.proxy.add({
      method: 'GET',
      path: /\/files\/a\.txt$/,
      times: 1,
      fault: { kind: 'tap', before: () => world.local.write('work/a.txt', 'my save, mid-download') },
    });
    const status = await engine.syncNow();
    expect(await world.local.read('work/a.txt')).toBe('my save, mid-download');
    expect(status.conflicts.map((c) => c.path)).toEqual(['work/a.txt']);
    const [copy] = await copiesOf('a');
    expect(await world.local.read(`work/${copy}`)).toBe("agent's newer version");
    expect(await world.remote.read('work/a.txt')).toBe("agent's newer version");
    expect(status.state).toBe('idle');
  });

  it('an agent write between the listing and the upload is never overwritten: 412, then a conflict', async () => {
    await world.remote.write('work/b.txt', 'base');
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/b.txt', 'my edit');
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/b\.txt$/,
      times: 1,
      fault: { kind: 'tap', before: () => world.remote.write('work/b.txt', "agent's edit, just now") },
    });
    const status = await engine.syncNow();
    // One conditional PUT, refused (412): the engine never sent an unconditional one after it.
    expect(world.proxy.count('PUT', /\/files\/b\.txt$/)).toBe(1);
    expect(await world.remote.read('work/b.txt')).toBe("agent's edit, just now");
    expect(await world.local.read('work/b.txt')).toBe('my edit');
    expect(status.conflicts.map((c) => c.path)).toEqual(['work/b.txt']);
    const [copy] = await copiesOf('b');
    expect(await world.local.read(`work/${copy}`)).toBe("agent's edit, just now");
  });

  it('an agent write before a remote delete is kept: the delete is refused (412) and the edit comes down', async () => {
    await world.remote.write('work/c.txt', 'base');
    const engine = world.engine();
    await engine.start();
    await world.local.remove('work/c.txt');
    world.proxy.add({
      method: 'DELETE',
      path: /\/files\/c\.txt$/,
      times: 1,
      fault: { kind: 'tap', before: () => world.remote.write('work/c.txt', "agent's late edit") },
    });
    await engine.syncNow();
    expect(await world.remote.read('work/c.txt')).toBe("agent's late edit");
    expect(await world.local.read('work/c.txt')).toBe("agent's late edit");
  });

  it('a new local file never replaces a file the agent created at the same path meanwhile', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/new.txt', 'mine, new');
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/new\.txt$/,
      times: 1,
      fault: { kind: 'tap', before: () => world.remote.write('work/new.txt', "the agent's, new too") },
    });
    const status = await engine.syncNow();
    expect(await world.remote.read('work/new.txt')).toBe("the agent's, new too");
    expect(await world.local.read('work/new.txt')).toBe('mine, new');
    expect(status.conflicts.map((c) => c.path)).toEqual(['work/new.txt']);
  });
});

describe('conditional writes cost no extra request', () => {
  it('a first sync into an empty workspace uploads with If-None-Match, without reading each file first', async () => {
    await world.remote.remove('work/keep.txt');
    for (let i = 0; i < 5; i += 1) await world.local.write(`work/n${i}.txt`, `new ${i}`);
    const engine = world.engine();
    const status = await engine.start();
    expect(status.failures).toEqual([]);
    expect(world.proxy.count('PUT', /\/files\/n\d\.txt$/)).toBe(5);
    expect(world.proxy.count('GET', /\/files\/n\d\.txt$/)).toBe(0);
    expect(await world.remote.list()).toHaveLength(5);
  });
});

describe('races on a bundle agent (no conditional write: the bundle is read again right before the POST)', () => {
  it("the agent's edit of another file between the listing and the POST survives; an edit of the same file is a conflict", async () => {
    const switched = await world.api.updateAgentConfig(world.agentId, { engine: 'house-lite' });
    expect(switched.ok).toBe(true);
    const engine = world.engine({ remote: new BundleRemote(world.api, world.agentId) });
    await engine.start();
    await world.local.write('knowledge/facts.md', 'mine, new');
    await world.local.write('instructions.md', 'my instructions');
    // The agent's prompt changes right as the engine reads the bundle before its POST.
    let reads = 0;
    world.proxy.add({
      method: 'GET',
      path: /\/bundle$/,
      fault: {
        kind: 'tap',
        before: async () => {
          reads += 1;
          if (reads === 2) await world.api.updateAgentConfig(world.agentId, { prompt: "the agent's prompt" });
        },
      },
    });
    const status = await engine.syncNow();
    const bundle = await world.api.getBundle(world.agentId);
    const files = bundle.ok ? bundle.value.files : [];
    const text = (path: string) =>
      Buffer.from(files.find((f) => f.path === path)?.contentBase64 ?? '', 'base64').toString();
    expect(text('knowledge/facts.md')).toBe('mine, new');
    expect(text('instructions.md')).toBe("the agent's prompt");
    expect(await world.local.read('instructions.md')).toBe('my instructions');
    expect(status.conflicts.map((c) => c.path)).toEqual(['instructions.md']);
  });
});

describe('version history', () => {
  it('keeps every version the sync replaced or deleted, on either side, and restores one', async () => {
    await world.remote.write('work/h.txt', 'v1 from the agent');
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/h.txt', 'v2 from me');
    await engine.syncNow();
    await world.remote.write('work/h.txt', 'v3 from the agent');
    await engine.syncNow();
    await world.remote.remove('work/h.txt');
    await engine.syncNow();
    expect(await world.local.exists('work/h.txt')).toBe(false);

    const versions = engine.versions.list('work/h.txt');
    const texts = await Promise.all(
      versions.map(async (v) => `${v.source}: ${Buffer.from(await engine.versions.bytesOf(v)).toString()}`),
    );
    expect(texts).toEqual(['remote: v3 from the agent', 'local: v2 from me', 'remote: v1 from the agent']);

    const v2 = versions.find((v) => v.source === 'local')!;
    await world.local.write('work/h.txt', Buffer.from(await engine.versions.bytesOf(v2)));
    await engine.syncNow();
    expect(await world.remote.read('work/h.txt')).toBe('v2 from me');
  });

  it('keeps a version that was never synced before the sync replaced it (read from the agent first)', async () => {
    await world.remote.write('work/old.txt', 'synced');
    const engine = world.engine();
    await engine.start();
    // A history that lost this content (capped away): the remote version is read before the upload.
    engine.versions.setCapBytes(1);
    expect(engine.versions.list('work/old.txt')).toEqual([]);
    engine.versions.setCapBytes(1024 * 1024);
    await world.local.write('work/old.txt', 'replacing it');
    await engine.syncNow();
    const kept = engine.versions.list('work/old.txt').map((v) => v.source);
    expect(kept).toEqual(['local', 'remote']);
    expect(
      Buffer.from(await engine.versions.bytesOf(engine.versions.list('work/old.txt')[1]!)).toString(),
    ).toBe('synced');
  });
});
