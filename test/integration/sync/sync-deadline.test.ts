/**
 * Issue 12: every request of the sync has a deadline. A server that takes a request and never
 * answers (the fault proxy forwards it to the real local service, then holds the answer forever)
 * costs one deadline: the call becomes a retryable fault with a plain message, and the next try,
 * cycle or poll runs. The deadline is shortened to 300 ms here so the test does not wait 30 s.
 */
import { describe, expect, it } from 'vitest';
import { BoxRemote } from '../../../src/core/sync/remote/box-remote';
import { BundleRemote } from '../../../src/core/sync/remote/bundle-remote';
import { deadlineMs, defaultDeadline } from '../../../src/core/sync/remote/request-deadline';
import { eventually, type SyncWorld, useSyncWorld } from './sync-harness';

const deadline = { baseMs: 300, msPerMegabyte: 0 };
const listing = /\/files\/?$/;

let world: SyncWorld;
useSyncWorld((created) => (world = created));

const boxRemote = () => new BoxRemote({ api: world.api, agentId: world.agentId, root: world.root, deadline });

describe('a server that never answers', () => {
  it('a stalled listing ends the cycle with a plain message, and the next cycle syncs', async () => {
    const engine = world.engine({ remote: boxRemote() });
    world.proxy.add({ method: 'GET', path: listing, fault: { kind: 'hold' } });
    const stalled = await engine.syncNow();
    expect(stalled.state).toBe('error');
    expect(stalled.message).toBe(
      "Could not list the agent's files: Listing the agent's workspace: the agent's server did not answer within 0.3 s",
    );
    expect(await world.local.exists('work/keep.txt')).toBe(false);

    world.proxy.clear();
    const next = await engine.syncNow();
    expect(next.state).toBe('idle');
    expect(await world.local.read('work/keep.txt')).toBe('keeps the listing non-empty');
  });

  it('a stalled upload is tried again, and the file ends up synced', async () => {
    const engine = world.engine({ remote: boxRemote() });
    await engine.start();
    await world.local.write('work/up.txt', 'my new file');
    world.proxy.add({ method: 'PUT', path: /\/files\/up\.txt$/, times: 1, fault: { kind: 'hold' } });
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(world.proxy.count('PUT', /\/files\/up\.txt$/)).toBeGreaterThanOrEqual(2);
    expect(await world.remote.read('work/up.txt')).toBe('my new file');
    expect(status.conflicts).toEqual([]);
  });

  it("a stalled poll does not stop the next one: the agent's write still arrives in watch mode", async () => {
    const engine = world.engine({ remote: boxRemote(), watch: true, remotePollMs: 100, remoteIntervalMs: 0 });
    await engine.start();
    world.proxy.add({ method: 'GET', path: listing, times: 1, fault: { kind: 'hold' } });
    await eventually(async () => world.proxy.count('GET', listing) >= 2, 'the poll looks (and stalls)');
    await world.remote.write('work/from-agent.txt', 'written by the agent');
    await eventually(
      async () => (await world.local.exists('work/from-agent.txt')) === true,
      "the agent's file reaches the folder after a stalled poll",
    );
  });

  it('a stalled bundle read ends the cycle with a plain message, and the next cycle syncs', async () => {
    const engine = world.engine({
      remote: new BundleRemote(world.api, world.agentId, 15, deadline),
    });
    world.proxy.add({ method: 'GET', path: /\/bundle$/, fault: { kind: 'hold' } });
    const stalled = await engine.syncNow();
    expect(stalled.state).toBe('error');
    expect(stalled.message).toContain(
      "Reading the agent's bundle: the agent's server did not answer within 0.3 s",
    );
    world.proxy.clear();
    expect((await engine.syncNow()).state).toBe('idle');
  });
});

describe('the deadline grows with the bytes', () => {
  it('30 s for any request, plus 10 s per megabyte', () => {
    expect(deadlineMs(0)).toBe(30_000);
    expect(deadlineMs(10 * 1_048_576)).toBe(130_000);
    expect(deadlineMs(512 * 1024, defaultDeadline)).toBe(35_000);
  });
});
