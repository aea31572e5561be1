/**
 * Machines as a resource: the awake cap and its queue, idle stops, engines
 * without a machine, configured engine commands (a probe agent for client-side
 * file confinement and older-style models), spawn failures.
 */
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { agentWorkspaceDir, type EngineCommand } from '../../../../src/service/engine';
import { tsxCommand } from '../../../support/tsx-command';
import { eventually, makeHost, startTurn, type Harness } from './engine-harness';

const open: Harness[] = [];
async function host(...args: Parameters<typeof makeHost>): Promise<Harness> {
  const h = await makeHost(...args);
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

const turn = (agentId: string, content: string, engine = 'engine-b') => ({
  agentId,
  engine,
  conversationId: `${agentId}-conv`,
  content,
});

/** The probe agent runs like the demo agent in dev: this Node with the tsx loader. */
function probeCommand(): EngineCommand {
  return { command: tsxCommand(fileURLToPath(new URL('./fixtures/probe-agent.ts', import.meta.url))) };
}

describe('awake cap', { timeout: 60_000 }, () => {
  it('queues a second agent until the first one frees its machine', async () => {
    const h = await host({ maxMachines: 1 });
    const abort = new AbortController();
    const a = startTurn(h.host, { ...turn('agent-a', 'wait 60'), signal: abort.signal });
    expect(a.handle.queued).toBe(false);
    await a.rec.until(() => a.rec.of('tool').length > 0);

    expect(h.host.wouldQueue('agent-b')).toBe(true);
    expect(h.host.wouldQueue('agent-a')).toBe(false);
    const b = startTurn(h.host, turn('agent-b', 'hello from b'));
    expect(b.handle.queued).toBe(true);
    expect(b.handle.queueLength).toBe(1);
    expect(h.host.queuedCount('agent-b')).toBe(1);
    expect(h.host.queuedCount('agent-a')).toBe(0);
    // A queued turn still takes input.
    expect(b.handle.acceptsInput()).toBe(true);

    // Another turn of the awake agent is not held up by the queue.
    const a2 = startTurn(h.host, { ...turn('agent-a', 'in parallel'), conversationId: 'agent-a-other' });
    expect(a2.handle.queued).toBe(false);
    expect((await a2.handle.done).stopReason).toBe('end_turn');
    expect(b.rec.events).toHaveLength(0);

    abort.abort();
    expect((await a.handle.done).stopReason).toBe('cancelled');
    await b.handle.running;
    expect(await b.handle.done).toEqual({ stopReason: 'end_turn' });
    expect(b.rec.text).toContain('You said: "hello from b"');
    expect(h.host.queuedCount()).toBe(0);
    expect(h.host.isAwake('agent-a')).toBe(false);
    expect(h.host.isAwake('agent-b')).toBe(true);
  });

  it('lets a queued turn leave the queue when cancelled', async () => {
    const h = await host({ maxMachines: 1 });
    const a = startTurn(h.host, turn('agent-a', 'wait 60'));
    await a.rec.until(() => a.rec.of('tool').length > 0);
    const abort = new AbortController();
    const b = startTurn(h.host, { ...turn('agent-b', 'never mind'), signal: abort.signal });
    expect(b.handle.queued).toBe(true);
    abort.abort();
    expect(await b.handle.done).toEqual({ stopReason: 'cancelled' });
    expect(h.host.queuedCount()).toBe(0);
    expect(b.rec.events).toHaveLength(0);
  });

  it('stops an idle machine after the idle period and respawns on demand', async () => {
    const h = await host({ idleMs: 200 });
    const first = startTurn(h.host, turn('agent-a', 'hello'));
    expect((await first.handle.done).stopReason).toBe('end_turn');
    await eventually(() => !h.host.isAwake('agent-a'), 'the idle machine to stop');
    expect(h.logs.some((line) => line.includes('idle for 200 ms'))).toBe(true);

    const second = startTurn(h.host, turn('agent-a', 'hello again'));
    expect((await second.handle.done).stopReason).toBe('end_turn');
    expect(second.rec.text).toContain('before this you said: "hello"');
  });
});

describe('engines', { timeout: 60_000 }, () => {
  it('has no machine for house-lite', async () => {
    const h = await host();
    expect(h.host.hasMachine('house-lite')).toBe(false);
    expect(h.host.hasMachine('engine-b')).toBe(true);
    const { handle } = startTurn(h.host, turn('agent-h', 'hi', 'house-lite'));
    expect(await handle.done).toMatchObject({ stopReason: 'error', errorCode: 'no_machine' });
    expect(h.host.isAwake('agent-h')).toBe(false);
  });

  it('reports a command that cannot start', async () => {
    const h = await host({ engines: { 'engine-e': { command: ['/nonexistent/agentdesk-agent'] } } });
    const { handle } = startTurn(h.host, turn('agent-x', 'hi', 'engine-e'));
    const result = await handle.done;
    expect(result).toMatchObject({ stopReason: 'error', errorCode: 'spawn_failed' });
    expect(result.error).toContain('could not start');
    expect(h.host.isAwake('agent-x')).toBe(false);
  });

  it("confines the agent's file requests to its workspace", async () => {
    const h = await host({ engines: { 'engine-d': { command: probeCommand().command } } });
    const workspace = agentWorkspaceDir(h.dataDir, 'agent-p');
    await mkdir(workspace, { recursive: true });
    await writeFile(join(workspace, 'inside.txt'), 'inside');
    await symlink(h.dataDir, join(workspace, 'link-out'));

    const say = async (content: string) => {
      const { handle, rec } = startTurn(h.host, turn('agent-p', content, 'engine-d'));
      expect((await handle.done).stopReason).toBe('end_turn');
      return rec.text;
    };
    expect(await say(`read ${join(workspace, 'inside.txt')}`)).toBe('OK inside');
    expect(await say('read /etc/hostname')).toMatch(/^ERROR .*outside the agent workspace/);
    expect(await say(`read ${join(workspace, '..', 'acp-sessions.json')}`)).toMatch(/^ERROR /);
    expect(await say(`write ${join(workspace, 'link-out', 'planted.txt')}`)).toMatch(/^ERROR /);
    expect(existsSync(join(h.dataDir, 'planted.txt'))).toBe(false);
    expect(await say(`write ${join(workspace, 'sub', 'ok.txt')}`)).toBe('OK');
    expect(existsSync(join(workspace, 'sub', 'ok.txt'))).toBe(true);
  });

  it('understands agents that describe models the older way', async () => {
    const h = await host({ engines: { 'engine-d': { command: probeCommand().command } } });
    const { handle, rec } = startTurn(h.host, {
      ...turn('agent-p', 'which model?', 'engine-d'),
      model: 'probe-large',
    });
    expect((await handle.done).stopReason).toBe('end_turn');
    expect(rec.of('models').at(-1)).toEqual({
      type: 'models',
      options: [
        { id: 'probe-small', label: 'Probe Small' },
        { id: 'probe-large', label: 'Probe Large' },
      ],
      current: 'probe-large',
    });
    expect(rec.text).toBe('model probe-large');
    // The probe does not support session/load or images.
    expect(rec.events[0]).toEqual({ type: 'caps', image: false });
  });
});
