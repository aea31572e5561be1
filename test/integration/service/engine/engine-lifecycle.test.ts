/**
 * Turn and machine lifecycle with real demo-agent processes: cancel, crash and
 * respawn, restart, memory across processes (session/load), injection.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentWorkspaceDir } from '../../../../src/service/engine';
import { makeHost, startTurn, type Harness } from './engine-harness';

const open: Harness[] = [];
async function host(...args: Parameters<typeof makeHost>): Promise<Harness> {
  const h = await makeHost(...args);
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

const turn = (agentId: string, conversationId: string, content: string) => ({
  agentId,
  engine: 'engine-b',
  conversationId,
  content,
});

describe('engine lifecycle', { timeout: 60_000 }, () => {
  it('cancels a long turn promptly, and the conversation goes on', async () => {
    const h = await host();
    const abort = new AbortController();
    const { handle, rec } = startTurn(h.host, { ...turn('a1', 'c1', 'wait 60'), signal: abort.signal });
    await rec.until(() => rec.of('tool').some((t) => t.status === 'in_progress'));
    expect(handle.acceptsInput()).toBe(true);
    abort.abort();
    expect(await handle.done).toEqual({ stopReason: 'cancelled' });
    expect(handle.acceptsInput()).toBe(false);
    expect(handle.inject('too late')).toBe(false);
    expect(rec.of('tool').at(-1)).toMatchObject({ status: 'failed', detalle: 'Cancelled.' });

    const next = startTurn(h.host, turn('a1', 'c1', 'are you back?'));
    expect((await next.handle.done).stopReason).toBe('end_turn');
    expect(next.rec.text).toContain('before this you said: "wait 60"');
  });

  it('cancels a turn whose machine is still starting', async () => {
    const h = await host();
    const abort = new AbortController();
    const { handle, rec } = startTurn(h.host, { ...turn('a1', 'c1', 'hello'), signal: abort.signal });
    abort.abort();
    expect(await handle.done).toEqual({ stopReason: 'cancelled' });
    expect(rec.events).toHaveLength(0);
  });

  it('cancels a turn that waits for a permission and closes the request', async () => {
    const h = await host();
    const abort = new AbortController();
    const { handle, rec } = startTurn(
      h.host,
      { ...turn('a1', 'c1', 'write x.txt\n```\nx\n```'), signal: abort.signal },
      () => new Promise(() => undefined), // nobody answers
    );
    await rec.until(() => rec.permissions.length === 1);
    const { signal } = rec.permissions[0]!;
    expect(signal.aborted).toBe(false);
    abort.abort();
    expect((await handle.done).stopReason).toBe('cancelled');
    expect(signal.aborted).toBe(true);
    expect(existsSync(join(agentWorkspaceDir(h.dataDir, 'a1'), 'x.txt'))).toBe(false);
  });

  it('ends the turn with an error when the agent crashes, and respawns for the next turn', async () => {
    const h = await host();
    const { handle, rec } = startTurn(h.host, turn('a1', 'c1', 'crash'));
    const result = await handle.done;
    expect(result).toMatchObject({ stopReason: 'error', errorCode: 'agent_crashed' });
    expect(result.error).toContain('exited with code 70');
    expect(rec.text).toContain('Crashing now');
    expect(h.host.isAwake('a1')).toBe(false);

    const next = startTurn(h.host, turn('a1', 'c1', 'hello after the crash'));
    expect((await next.handle.done).stopReason).toBe('end_turn');
    expect(next.rec.text).toContain('You said: "hello after the crash"');
    expect(h.host.isAwake('a1')).toBe(true);
  });

  it('keeps conversation memory across a service restart through session/load', async () => {
    const first = await host();
    const dataDir = first.dataDir;
    const a = startTurn(first.host, turn('a1', 'memory', 'My name is Ada.'));
    expect((await a.handle.done).stopReason).toBe('end_turn');
    const deep = startTurn(first.host, { ...turn('a1', 'memory', 'switch please'), model: 'demo-deep' });
    await deep.handle.done;
    await first.host.close();

    // A new host over the same data folder: a new process, the same ACP session.
    const second = await host({}, dataDir);
    const b = startTurn(second.host, turn('a1', 'memory', 'Who am I?'));
    expect((await b.handle.done).stopReason).toBe('end_turn');
    expect(b.rec.text).toContain('message 3 of our conversation');
    expect(b.rec.text).toContain('before this you said: "switch please"');
    // The model chosen before the restart is still the session's model, and the
    // history replayed by session/load did not leak into this turn's events.
    expect(b.rec.of('models')[0]?.current).toBe('demo-deep');
    expect(b.rec.text).not.toContain('My name is Ada.');

    const map = JSON.parse(await readFile(join(dataDir, 'agents', 'a1', 'acp-sessions.json'), 'utf8'));
    expect(Object.keys(map['engine-b'].sessions)).toEqual(['memory']);
  });

  it('restart interrupts a running turn, keeps the workspace, and gives a new sandbox', async () => {
    const h = await host();
    const workspace = agentWorkspaceDir(h.dataDir, 'a1');
    const warm = await h.host.restart('a1', 'engine-b');
    expect(warm.restarted).toBe(true);
    await writeFile(join(workspace, 'keep.txt'), 'still here');

    const { handle, rec } = startTurn(h.host, turn('a1', 'c1', 'wait 60'));
    await rec.until(() => rec.of('tool').length > 0);
    const restarted = await h.host.restart('a1', 'engine-b');
    expect(await handle.done).toEqual({ stopReason: 'cancelled', interruptedBy: 'restart' });
    expect(restarted.restarted).toBe(true);
    expect(restarted.sandboxId).not.toBe(warm.sandboxId);
    expect(h.host.isAwake('a1')).toBe(true);
    expect(await readFile(join(workspace, 'keep.txt'), 'utf8')).toBe('still here');

    const next = startTurn(h.host, turn('a1', 'c1', 'list files'));
    expect((await next.handle.done).stopReason).toBe('end_turn');
    expect(next.rec.text).toContain('keep.txt');
  });

  it('injects a message into a running turn and answers it in the same turn', async () => {
    const h = await host();
    const { handle, rec } = startTurn(h.host, turn('a1', 'c1', 'wait 1'));
    await rec.until(() => rec.of('tool').some((t) => t.status === 'in_progress'));
    expect(handle.inject('one more thing')).toBe(true);
    expect(handle.inject('and another')).toBe(true);
    expect(await handle.done).toEqual({ stopReason: 'end_turn' });
    expect(rec.text).toContain('Done waiting 1 seconds.');
    expect(rec.text).toContain('You said: "one more thing\n\nand another"');
    expect(rec.text.indexOf('Done waiting')).toBeLessThan(rec.text.indexOf('one more thing'));
    expect(handle.acceptsInput()).toBe(false);
    expect(handle.inject('after the end')).toBe(false);
  });

  it('stop() ends running turns and frees the machine', async () => {
    const h = await host();
    const { handle, rec } = startTurn(h.host, turn('a1', 'c1', 'wait 60'));
    await rec.until(() => rec.of('tool').length > 0);
    await h.host.stop('a1');
    expect(await handle.done).toEqual({ stopReason: 'cancelled', interruptedBy: 'stop' });
    expect(h.host.isAwake('a1')).toBe(false);
  });
});
