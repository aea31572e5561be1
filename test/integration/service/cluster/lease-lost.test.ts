/**
 * Two real service processes on one real PostgreSQL. The process running an agent stays alive but stalls
 * (SIGSTOP: no heartbeat, no query) past its lease; the other process ends the turn nobody runs now and
 * takes the agent over with the next message. When the first wakes, it must stop acting for that agent:
 * drop its turn without a word and stop its machine, so the agent never runs in two processes and the old
 * turn writes nothing over the new holder's record.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { cluster, runsAgent } from './cluster-harness';

describe('an agent lease lost while its holder lives', { timeout: 180_000 }, () => {
  it('the old holder drops its turn and stops its machine once it learns another process took the agent', async () => {
    const { a, b, agentId, call, newConversation, send, events } = await cluster();
    const conversation = await newConversation(a);
    const stream = await events(b, conversation);
    onTestFinished(() => stream.close());

    const long = await send(a, conversation, 'wait 60'); // A takes the agent and runs the turn
    await stream.nextNamed('tool', (d) => d.status === 'in_progress');
    expect(runsAgent(a, agentId)).toBe(true);

    process.kill(a.pid, 'SIGSTOP');
    onTestFinished(() => {
      try {
        process.kill(a.pid, 'SIGCONT'); // never leave a paused process behind
      } catch {
        // already gone
      }
    });
    // B ends the turn nobody runs now, then takes the agent over with the next message.
    const error = await stream.nextNamed('error', undefined, 30_000);
    expect(error.data).toMatchObject({ turnId: long, code: 'service_restarted' });
    const next = await send(b, conversation, 'hello again');
    const ran = await stream.untilDone(next, 60_000);
    expect(ran.at(-1)!.data).toMatchObject({ turnId: next, estado: 'done' });
    expect(runsAgent(b, agentId)).toBe(true);

    process.kill(a.pid, 'SIGCONT');
    // A wakes, learns it lost the agent, and stops its machine (the agent process exits).
    await expect
      .poll(() => a.output(), { timeout: 30_000 })
      .toContain(`cluster: lost the lease of agent ${agentId}`);
    await expect.poll(() => a.output(), { timeout: 30_000 }).toContain(`[${agentId}] agent exited`);

    // The record is the new holder's: the old turn ended as an error with no reply, the new one done.
    const thread = await call(b, `/${conversation}`);
    const body = (await thread.json()) as {
      messages: { role: string; content: string }[];
      ultimoTurno: { turnId: string; estado: string };
    };
    expect(body.ultimoTurno).toMatchObject({ turnId: next, estado: 'done' });
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    // Nothing of A's turn reached the stream after its ending.
    const afterEnding = stream.events.slice(stream.events.findIndex((e) => e.event === 'error'));
    expect(afterEnding.filter((e) => e.id?.startsWith(`${long}.`))).toEqual([]);
  });
});
