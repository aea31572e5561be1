/**
 * Agents that fail: each is a small agent on the official ACP SDK run as a real process, and the
 * turn must end as `error` with the agent's own reason, never "Internal error" or a silent "done".
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tsxCommand } from '../../../support/tsx-command';
import { createHarness } from '../turns/harness';
import { makeHost, startTurn, type Harness } from './engine-harness';

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

function faultyCommand(mode: string): { command: string[] } {
  return { command: tsxCommand(fileURLToPath(new URL('./fixtures/faulty-agent.ts', import.meta.url)), mode) };
}

async function hostRunning(mode: string): Promise<Harness> {
  const h = await makeHost({ engines: { 'engine-b': faultyCommand(mode) } });
  open.push(h);
  return h;
}

const turn = { agentId: 'a1', engine: 'engine-b', conversationId: 'c1', content: 'hello' };

describe('agents that fail', { timeout: 60_000 }, () => {
  it("shows the agent's own reason from a JSON-RPC error's data.details", async () => {
    const h = await hostRunning('throws');
    const { handle } = startTurn(h.host, turn);
    expect(await handle.done).toEqual({
      stopReason: 'error',
      errorCode: 'agent_error',
      error: 'Rate limit reached for model faulty-1: try again in 20 s',
    });
  });

  it("puts the agent's reason in the turn's error event, over HTTP and SSE", async () => {
    const service = await createHarness({ config: { engines: { 'engine-b': faultyCommand('throws') } } });
    try {
      const conversationId = await service.conversation();
      const events = await service.events(conversationId);
      const sent = await service.send(conversationId, { content: 'hello' });
      const error = await events.nextNamed('error');
      expect(error.data).toMatchObject({
        message: 'Rate limit reached for model faulty-1: try again in 20 s',
        code: 'agent_error',
      });
      expect((await events.nextNamed('done')).data).toMatchObject({
        turnId: sent.body.turnId,
        estado: 'error',
      });
    } finally {
      await service.close();
    }
  });

  it('names the exit code and the last stderr lines of an agent that exits at start', async () => {
    const h = await hostRunning('exits');
    const result = await startTurn(h.host, turn).handle.done;
    expect(result.stopReason).toBe('error');
    expect(result.errorCode).toBe('spawn_failed');
    expect(result.error).toContain('exited with code 3');
    expect(result.error).toContain('ANTHROPIC_API_KEY is not set');
  });

  it('ends the turn as an error when session/new has no sessionId', async () => {
    const h = await hostRunning('no-session-id');
    const { handle, rec } = startTurn(h.host, turn);
    const result = await handle.done;
    expect(result).toMatchObject({ stopReason: 'error', errorCode: 'protocol_error' });
    expect(result.error).toMatch(/session\/new.*sessionId/);
    expect(rec.text).toBe('');
  });

  it('ends the turn as an error when session/prompt has no stopReason', async () => {
    const h = await hostRunning('no-stop-reason');
    const { handle, rec } = startTurn(h.host, turn);
    const result = await handle.done;
    expect(result).toMatchObject({ stopReason: 'error', errorCode: 'protocol_error' });
    expect(result.error).toMatch(/session\/prompt.*stopReason/);
    expect(rec.text).toBe('half a reply');
  });
});
