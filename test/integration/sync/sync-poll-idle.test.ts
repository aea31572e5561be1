/**
 * Issue 30, item 4: the agent-write poll idles. While nothing moves the looks at the agent's
 * workspace space out (each a conditional listing our service answers 304); a turn (the host's
 * hint), the agent's own write or a local edit brings them back to the full pace at once. The
 * looks are timed where they reach the real local service (through the fault proxy), with the
 * periods shortened (300 ms, up to 16×) so the test takes seconds; the app's own numbers (2 s, up
 * to 16 s) are checked under fake timers in test/unit/core/sync/remote-poller.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { eventually, type SyncWorld, useSyncWorld } from './sync-harness';

let world: SyncWorld;
useSyncWorld((created) => (world = created));

const fast = 300;
const slowest = fast * 16;
const watching = {
  watch: true,
  remotePollMs: fast,
  remotePollIdle: { quietLooks: 3, maxFactor: 16 },
  remoteIntervalMs: 0,
};

/** Times every look at the workspace listing as it reaches the service. */
function timeLooks(): number[] {
  const looks: number[] = [];
  world.proxy.add({
    method: 'GET',
    path: /\/files\/?$/,
    fault: { kind: 'tap', before: async () => void looks.push(Date.now()) },
  });
  return looks;
}

describe('the agent-write poll while the agent is idle', () => {
  it('spaces its looks out, and a turn brings them back to the full pace', async () => {
    const engine = world.engine(watching);
    await engine.start();
    const looks = timeLooks();
    await eventually(async () => engine.pollPeriodMs === slowest, 'the looks back off to the slowest pace');
    const count = looks.length;
    await eventually(async () => looks.length >= count + 2, 'two looks at the slowest pace');
    // Timers are never early: a backed-off gap is at least the slowest period, less the jitter of
    // the requests' own travel.
    expect(looks.at(-1)! - looks.at(-2)!).toBeGreaterThanOrEqual(slowest - 200);

    // A turn runs (the host's hint): the next look comes after one fast period, not the slow one.
    const seen = looks.length;
    engine.agentActive();
    const hinted = Date.now();
    expect(engine.pollPeriodMs).toBe(fast);
    await eventually(async () => looks.length > seen, 'a look soon after the turn began');
    expect(looks[seen]! - hinted).toBeLessThan(slowest / 2);
    await eventually(async () => looks.length >= seen + 3, 'three looks at the full pace');
    expect(looks[seen + 2]! - looks[seen + 1]!).toBeLessThan(slowest / 2);
  });

  it("the agent's write arrives while backed off, and the pace comes back", async () => {
    const engine = world.engine(watching);
    await engine.start();
    await eventually(async () => engine.pollPeriodMs === slowest, 'the looks back off to the slowest pace');
    const wrote = Date.now();
    await world.remote.write('work/from-the-agent.txt', 'written while the folder idled');
    await eventually(
      async () =>
        (await world.local.exists('work/from-the-agent.txt')) &&
        (await world.local.read('work/from-the-agent.txt')) === 'written while the folder idled',
      "the agent's write reaches the folder",
    );
    // Within one slow period and a cycle, never later.
    expect(Date.now() - wrote).toBeLessThan(slowest + 5000);
    expect(engine.pollPeriodMs).toBe(fast);
  });

  it('a local edit brings the pace back too', async () => {
    // The pace when the save's own pass begins (the fast path syncs it; a full cycle would scan
    // first): the watcher, not a later look, brought it back.
    let paceAtSave: number | undefined;
    let armed = false;
    const engine = world.engine({
      ...watching,
      onStatus: (status) => {
        const begins = status.state === 'scanning' || status.state === 'syncing';
        if (armed && begins && paceAtSave === undefined) paceAtSave = engine.pollPeriodMs;
      },
    });
    await engine.start();
    await eventually(async () => engine.pollPeriodMs === slowest, 'the looks back off to the slowest pace');
    armed = true;
    await world.local.write('work/mine.txt', 'the person saves a file');
    await eventually(async () => paceAtSave !== undefined, "the save's cycle begins");
    expect(paceAtSave).toBe(fast);
    await eventually(
      async () => (await world.remote.read('work/mine.txt')) === 'the person saves a file',
      'the save reaches the agent',
    );
  });
});
