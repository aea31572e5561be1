/**
 * A remote answer cut short or unreadable (a 200 whose JSON body ends early) is a transport fault:
 * the engine tries again, and while it cannot read the listing it changes nothing on either side.
 * Against the real local service behind the fault proxy, on a real folder.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncWorld, type SyncWorld } from './sync-harness';

const listing = { method: 'GET', path: /\/files\/$/ } as const;
const cutShort = { kind: 'truncate', keepBytes: 5 } as const;

let world: SyncWorld;
beforeEach(async () => {
  world = await createSyncWorld();
});
afterEach(async () => {
  await world.close();
});

describe('an unreadable remote answer', () => {
  it('a listing cut short once is retried within the cycle, which then syncs', async () => {
    await world.remote.write('work/a.txt', 'from the agent');
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/a.txt', 'the agent, again');
    world.proxy.add({ ...listing, times: 1, fault: cutShort });

    const status = await engine.syncNow();

    expect(status.state).toBe('idle');
    expect(status.failures).toEqual([]);
    expect(await world.local.read('work/a.txt')).toBe('the agent, again');
    expect(world.proxy.count('GET', /\/files\/$/)).toBeGreaterThanOrEqual(2);
  });

  it('a listing that stays unreadable fails the cycle and leaves both sides and the base as they were', async () => {
    await world.local.write('work/mine.txt', 'the person');
    await world.remote.write('work/theirs.txt', 'the agent');
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/mine.txt', 'the person, edited');
    world.proxy.add({ ...listing, fault: cutShort });
    const writesBefore = world.proxy.count('PUT', /\/files\//) + world.proxy.count('DELETE', /\/files\//);

    const failed = await engine.syncNow();

    expect(failed.state).toBe('error');
    expect(failed.message).toMatch(/Could not list the agent's files/);
    expect(world.proxy.count('PUT', /\/files\//) + world.proxy.count('DELETE', /\/files\//)).toBe(
      writesBefore,
    );
    expect(await world.local.read('work/theirs.txt')).toBe('the agent');
    expect(await world.remote.read('work/mine.txt')).toBe('the person');

    world.proxy.clear();
    expect((await engine.syncNow()).state).toBe('idle');
    expect(await world.remote.read('work/mine.txt')).toBe('the person, edited');
    expect(await world.remote.read('work/theirs.txt')).toBe('the agent');
    expect(await world.local.read('work/theirs.txt')).toBe('the agent');
  });

  it('a 304 to a conditional listing passes the fault proxy untouched instead of hanging', async () => {
    // The proxy's JSON rewrite once threw on the empty body of a 304 and never answered.
    const engine = world.engine();
    world.proxy.add({ ...listing, fault: { kind: 'rewrite-json', rewrite: (body) => body } });
    const status = await engine.start().then(() => engine.syncNow());
    expect(status.state).toBe('idle');
  });
});
