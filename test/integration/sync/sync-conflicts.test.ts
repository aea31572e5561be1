/**
 * Resolving a conflict when things moved on after it was flagged (found by the model test,
 * scenario 28): the person only ever decides about a version they could see, and nothing
 * else is dropped. Real local service, real disk.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../../src/core/sync/engine/sync-engine';
import { createSyncWorld, type SyncWorld } from './sync-harness';

let world: SyncWorld;
let engine: SyncEngine;
beforeEach(async () => {
  world = await createSyncWorld();
  await world.remote.write('work/keep.txt', 'keeps the listing non-empty');
  await world.remote.write('work/a.txt', 'base');
  engine = world.engine();
  await engine.start();
  await world.remote.write('work/a.txt', 'theirs, first');
  await world.local.write('work/a.txt', 'mine!');
  const status = await engine.syncNow();
  expect(status.conflicts.map((c) => c.path)).toEqual(['work/a.txt']);
});
afterEach(async () => {
  await world.close();
});

const copiesOfA = async () =>
  (await readdir(join(world.root, 'work'))).filter((n) => n.startsWith('a.conflict-remote-')).sort();

describe('resolving a conflict after the agent changed the file again', () => {
  it('keep mine first shows the newest version as a new copy, then uploads mine', async () => {
    await world.remote.write('work/a.txt', 'theirs, second');
    let status = await engine.resolveConflict('work/a.txt', 'mine');
    expect(status.conflicts).toHaveLength(1);
    expect(status.message).toMatch(/changed work\/a\.txt again/);
    expect(await world.remote.read('work/a.txt')).toBe('theirs, second');
    const copies = await copiesOfA();
    expect(copies).toHaveLength(2);
    const texts = await Promise.all(copies.map((c) => world.local.read(`work/${c}`)));
    expect(texts.sort()).toEqual(['theirs, first', 'theirs, second']);

    status = await engine.resolveConflict('work/a.txt', 'mine');
    expect(status.conflicts).toEqual([]);
    expect(await world.remote.read('work/a.txt')).toBe('mine!');
    // The copy the person decided about is gone; the older one stays for them to look at.
    expect(await copiesOfA()).toHaveLength(1);
  });

  it('keep mine never writes over a version the agent wrote while it was being settled', async () => {
    // The agent writes the moment the upload of "mine" goes out, after the resolve read its version.
    world.proxy.add({
      method: 'PUT',
      path: /\/files\/a\.txt$/,
      fault: { kind: 'tap', before: () => world.remote.write('work/a.txt', 'theirs, during') },
      times: 1,
    });
    let status = await engine.resolveConflict('work/a.txt', 'mine');
    expect(status.conflicts).toHaveLength(1);
    expect(status.message).toMatch(/changed work\/a\.txt again/);
    expect(await world.remote.read('work/a.txt')).toBe('theirs, during');

    // The next choice is made having seen it: it becomes a copy first, then mine goes.
    status = await engine.resolveConflict('work/a.txt', 'mine');
    expect(status.conflicts).toHaveLength(1);
    const texts = await Promise.all((await copiesOfA()).map((c) => world.local.read(`work/${c}`)));
    expect(texts.sort()).toEqual(['theirs, during', 'theirs, first']);
    status = await engine.resolveConflict('work/a.txt', 'mine');
    expect(status.conflicts).toEqual([]);
    expect(await world.remote.read('work/a.txt')).toBe('mine!');
  });

  it('keep theirs, after the agent deleted the file, restores their version on both sides', async () => {
    await world.remote.remove('work/a.txt');
    const status = await engine.resolveConflict('work/a.txt', 'theirs');
    expect(status.conflicts).toEqual([]);
    expect(await world.local.read('work/a.txt')).toBe('theirs, first');
    expect(await world.remote.read('work/a.txt')).toBe('theirs, first');
  });

  it('keep both, after the person deleted their file, takes theirs', async () => {
    await world.local.remove('work/a.txt');
    const status = await engine.resolveConflict('work/a.txt', 'both');
    expect(status.conflicts).toEqual([]);
    expect(await world.local.read('work/a.txt')).toBe('theirs, first');
    expect((await world.remote.list()).sort()).toEqual(['work/a.txt', 'work/keep.txt']);
    expect((await engine.syncNow()).total).toBe(0);
  });
});
