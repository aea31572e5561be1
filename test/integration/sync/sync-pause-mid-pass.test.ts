/**
 * The person presses Pause while a pass is moving files. The pass finishes what it started (a file is
 * never left half-written), but its end must not undo the pause: the status stays "paused", so the
 * panel keeps offering Resume, and nothing more moves until the person resumes. A busy machine made this
 * show in the two-devices e2e spec: the pass ending after the click said "idle" and Resume was gone.
 * A pass pressed Pause on while it still looks (lists, scans, plans) moves nothing at all.
 * Real local service, real disk; the fault proxy presses Pause at the exact moment a request passes.
 */
import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../src/core/sync/engine/sync-engine';
import { eventually, type SyncWorld, useSyncWorld } from './sync-harness';

let world: SyncWorld;
useSyncWorld((created) => (world = created));

/** Presses the engine's Pause the moment its request `method path` passes the proxy, once. */
function pauseAt(engine: { pause(): void }, method: 'GET' | 'PUT', path: RegExp): void {
  world.proxy.add({ method, path, times: 1, fault: { kind: 'tap', before: async () => engine.pause() } });
}

describe('pause pressed while a pass runs', () => {
  it('a full pass ends with the folder still paused, its download done, and nothing more carried until resume', async () => {
    const seen: SyncStatus[] = [];
    const engine = world.engine({ onStatus: (status) => seen.push(status) });
    await engine.start();
    await world.remote.write('work/picnic.txt', 'lemonade, bread');
    pauseAt(engine, 'GET', /\/files\/picnic\.txt$/);
    const status = await engine.syncNow();
    expect(await world.local.read('work/picnic.txt')).toBe('lemonade, bread');
    expect(status.state).toBe('paused');
    expect(status.message).toBe('Sync is paused.');
    expect(seen.at(-1)?.state).toBe('paused');
    // The file moved under the pause is recorded as synced: resuming finds nothing to carry for it.
    expect(status.lastSyncAt).toBeDefined();

    await world.local.write('work/while-paused.txt', 'waits');
    expect((await engine.syncNow()).state).toBe('paused');
    expect(await world.remote.read('work/while-paused.txt')).toBeUndefined();

    const resumed = await engine.resume();
    expect(resumed.state).toBe('idle');
    expect(await world.remote.read('work/while-paused.txt')).toBe('waits');
    expect(resumed.conflicts).toEqual([]);
  });

  // As the two-devices spec met it on a busy machine: Pause clicked, the panel said Paused, the file was
  // saved, and a cycle that had begun before the click (and scanned after the save) uploaded it.
  it.each([
    { pass: 'a cycle', from: () => world.local, to: () => world.remote, run: 'syncNow' as const },
    {
      pass: "a pass over the agent's changes",
      from: () => world.remote,
      to: () => world.local,
      run: 'syncRemote' as const,
    },
  ])(
    'pause pressed while $pass looks, before it moved a file: the change it found waits for resume',
    async (c) => {
      const engine = world.engine();
      await engine.start();
      await c.from().write('work/picnic.txt', 'lemonade, bread');
      await engine.syncNow();
      expect(await c.to().read('work/picnic.txt')).toBe('lemonade, bread');
      await c.from().write('work/picnic.txt', 'lemonade, bread, cheese');
      pauseAt(engine, 'GET', /\/files\/$/); // the pass's listing
      expect((await engine[c.run]()).state).toBe('paused');
      expect(await c.to().read('work/picnic.txt')).toBe('lemonade, bread');

      expect((await engine.resume()).state).toBe('idle');
      expect(await c.to().read('work/picnic.txt')).toBe('lemonade, bread, cheese');
    },
  );

  it("a watched edit's pass ends paused too, and the next edit waits for resume", async () => {
    const engine = world.engine({ watch: true });
    await engine.start();
    pauseAt(engine, 'PUT', /\/files\/notes\.txt$/);
    await world.local.write('work/notes.txt', 'first');
    await eventually(
      async () => (await world.remote.read('work/notes.txt')) === 'first',
      'the edit uploaded',
    );
    await eventually(async () => engine.current.state === 'paused', 'the pass ended paused');
    // Settled: whatever pass was running is over, and the state it left is the person's pause.
    expect((await engine.syncNow()).state).toBe('paused');

    await world.local.write('work/notes.txt', 'second');
    expect((await engine.syncPaths(['work/notes.txt'])).state).toBe('paused');
    expect(await world.remote.read('work/notes.txt')).toBe('first');
    expect((await engine.resume()).state).toBe('idle');
    expect(await world.remote.read('work/notes.txt')).toBe('second');
  });
});
