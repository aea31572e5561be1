/**
 * Issue 30: an agent's change costs one listing of its workspace, not two. The poll's look
 * (a conditional listing) that finds the workspace moved hands its listing to the remote pass,
 * which plans from it instead of listing again; at 100,000 files each listing costs about a
 * second, and a save waited behind the second. A save synced while the look's answer was on its
 * way is newer than that listing, and must not be judged from it. Real local service over real
 * HTTP (through a proxy that counts and delays), real disk, the real watcher.
 */
import { describe, expect, it } from 'vitest';
import { eventually, type SyncWorld, useSyncWorld } from './sync-harness';

let world: SyncWorld;
useSyncWorld((created) => (world = created));

const pollOnly = { watch: true, remotePollMs: 200, remoteIntervalMs: 0, remotePollIdle: false as const };
/** Listings of the whole workspace that are not a poll's conditional look. */
const plainListings = () =>
  world.proxy.seen.filter((r) => r.method === 'GET' && /\/files\/?$/.test(r.path) && !r.conditional).length;
/**
 * An engine over a folder synced before, so its start writes nothing: a first sync's own writes (the
 * folder's marker, uploads) reach the watcher late on a busy machine, and run a full cycle that
 * lists the workspace in the middle of the test.
 */
async function startSynced() {
  const first = world.engine(pollOnly);
  await first.start();
  await first.close();
  const engine = world.engine(pollOnly);
  await engine.start();
  return engine;
}
const localIs = (path: string, text: string) => async () =>
  (await world.local.exists(path)) && (await world.local.read(path)) === text;

describe("the look's listing serves the remote pass", () => {
  it("an agent's new file reaches the folder without a second listing", async () => {
    await world.local.write('work/kept.txt', 'kept');
    const engine = await startSynced();
    const before = plainListings();

    await world.remote.write('work/from-agent.txt', 'made by the agent');
    await eventually(localIs('work/from-agent.txt', 'made by the agent'), "the agent's file arrives");
    await eventually(async () => engine.current.state === 'idle', 'the pass ends idle');

    expect(plainListings() - before).toBe(0);
    expect(engine.current.conflicts).toEqual([]);
  });

  it('a save synced while the look was answered keeps its new version on both sides', async () => {
    await world.local.write('work/notes.txt', 'first draft');
    const engine = await startSynced();

    // The first look to find the workspace moved gets its listing now (notes.txt at its first
    // draft, the agent's new file in it); its answer is held until the person's save has reached
    // the agent and been settled.
    let released = false;
    world.proxy.add({
      method: 'GET',
      path: /\/files\/?$/,
      fault: {
        kind: 'delay',
        until: async (status) => {
          if (status !== 200 || released) return;
          await world.local.save('work/notes.txt', 'second draft');
          await world.local.save('work/plan.txt', 'a new file');
          await eventually(
            async () =>
              (await world.remote.read('work/notes.txt')) === 'second draft' &&
              (await world.remote.read('work/plan.txt')) === 'a new file',
            'the saves reach the agent while the look waits',
          );
          await eventually(async () => engine.current.state === 'idle', 'the save is settled');
          released = true;
        },
      },
    });
    const listedAtStart = plainListings();
    await world.remote.write('work/from-agent.txt', 'made by the agent');

    await eventually(localIs('work/from-agent.txt', 'made by the agent'), "the agent's file arrives");
    expect(released).toBe(true);
    await eventually(async () => engine.current.state === 'idle', 'the pass ends idle');
    // Judged from that listing, the new file looked deleted by the agent (and was taken from the
    // folder), and the edit looked like the agent's (a full cycle, which lists again, sorted it).
    expect(world.trashed).toEqual([]);
    expect(plainListings()).toBe(listedAtStart);
    await engine.syncNow(); // and a full cycle finds nothing left to do

    for (const [path, text] of [
      ['work/notes.txt', 'second draft'],
      ['work/plan.txt', 'a new file'],
    ]) {
      expect(await world.local.read(path!)).toBe(text);
      expect(await world.remote.read(path!)).toBe(text);
    }
    expect(engine.current.conflicts).toEqual([]);
  });
});
