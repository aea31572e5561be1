/**
 * Issue 12, item 7: in watch mode the agent's writes reach the folder fast everywhere, not only
 * under work/. The 2 s poll looks at the workspace listing and the configuration (GET /bundle),
 * each conditionally (our service answers 304 while nothing moved, docs/extensions.md). Here the
 * 30 s timer is off (remoteIntervalMs: 0) and nothing local changes, so only the poll can bring
 * the change. Real local service over real HTTP, real disk.
 */
import { describe, expect, it } from 'vitest';
import { BundleRemote } from '../../../src/core/sync/remote/bundle-remote';
import { eventually, type SyncWorld, useSyncWorld } from './sync-harness';

let world: SyncWorld;
useSyncWorld((created) => (world = created));

const pollOnly = { watch: true, remotePollMs: 200, remoteIntervalMs: 0 };
const localIs = (path: string, text: string) => async () =>
  (await world.local.exists(path)) && (await world.local.read(path)) === text;

describe("the poll brings the agent's configuration", () => {
  it('new instructions, a new skill and new MCP servers reach the folder of a machine agent', async () => {
    const engine = world.engine(pollOnly);
    await engine.start();

    const prompt = await world.api.updateAgentConfig(world.agentId, { prompt: 'Answer in haiku.' });
    expect(prompt.ok).toBe(true);
    await eventually(localIs('instructions.md', 'Answer in haiku.'), 'the new instructions arrive');

    const skill = '---\nname: tidy\ndescription: Tidies things.\n---\nTidy up.\n';
    const installed = await world.api.installSkill(world.agentId, 'tidy', { markdown: skill, assets: [] });
    expect(installed.ok).toBe(true);
    await eventually(localIs('skills/tidy/SKILL.md', skill), 'the new skill arrives');

    const servers = [{ name: 'files', command: 'mcp-files', args: [] }];
    const set = await world.api.setMcpServers(world.agentId, servers);
    expect(set.ok).toBe(true);
    await eventually(
      async () =>
        (await world.local.exists('mcp.json')) && (await world.local.read('mcp.json')).includes('mcp-files'),
      'the new MCP servers arrive',
    );
    // The file is on disk a moment before the pass that wrote it ends: wait for that pass, which ends idle.
    await eventually(async () => engine.current.state === 'idle', 'the pass ends idle, not in error');
    expect(engine.current.state).toBe('idle');
  });

  it("a bundle agent's new knowledge file reaches the folder", async () => {
    const engine = world.engine({ ...pollOnly, remote: new BundleRemote(world.api, world.agentId) });
    await engine.start();
    // A machine agent's knowledge lives in its workspace and is part of its bundle.
    await world.remote.write('work/knowledge/facts.md', 'Water boils at 100 °C.');
    await eventually(localIs('knowledge/facts.md', 'Water boils at 100 °C.'), 'the knowledge file arrives');
  });

  it('while nothing moves, the poll runs no cycle', async () => {
    let cycles = 0;
    const engine = world.engine({
      ...pollOnly,
      onStatus: (s) => void (s.state === 'scanning' && (cycles += 1)),
    });
    await engine.start();
    const looks = () => world.proxy.count('GET', /\/bundle$/);
    // The first sync's own downloads may wake the watcher once; count from when that settled.
    await eventually(async () => looks() >= 2, 'the poll looks');
    await engine.syncNow();
    const before = cycles;
    const start = looks();
    await eventually(async () => looks() >= start + 3, 'three more looks at the bundle');
    expect(cycles).toBe(before);
  });

  it('while nothing moves, each look is one request: the workspace every time, the configuration every other time', async () => {
    const engine = world.engine(pollOnly);
    await engine.start();
    await engine.syncNow();
    const listings = () => world.proxy.count('GET', /\/files\/?$/);
    const bundles = () => world.proxy.count('GET', /\/bundle$/);
    const [listed, read] = [listings(), bundles()];
    await eventually(async () => listings() >= listed + 10, 'ten looks at the workspace');
    await engine.close();
    const looks = listings() - listed;
    const configLooks = bundles() - read;
    // One look may straddle a count (its listing before, its bundle read after): ±1.
    expect(configLooks).toBeGreaterThanOrEqual(Math.floor(looks / 2) - 1);
    expect(configLooks).toBeLessThanOrEqual(Math.ceil(looks / 2) + 1);
  });
});

describe('the bundle version (our extension)', () => {
  it('GET /bundle carries an ETag, answers 304 to it, and a new one once the bundle moved', async () => {
    const url = `${world.service.url}/api/v2/agents/${world.agentId}/bundle`;
    const auth = { authorization: `Bearer ${world.token}` };
    const first = await fetch(url, { headers: auth });
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const same = await fetch(url, { headers: { ...auth, 'if-none-match': etag! } });
    expect(same.status).toBe(304);
    await world.api.updateAgentConfig(world.agentId, { prompt: 'Something new.' });
    const moved = await fetch(url, { headers: { ...auth, 'if-none-match': etag! } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(etag);
  });
});
