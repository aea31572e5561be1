/**
 * Two real service processes on one real PostgreSQL. The process running an agent stays alive but stalls
 * (SIGSTOP: no heartbeat, no query) past its lease; the other process ends the turn nobody runs now and
 * takes the agent over with the next message. When the first wakes, it must stop acting for that agent:
 * drop its turn without a word and stop its machine, so the agent never runs in two processes and the old
 * turn writes nothing over the new holder's record.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { freshDatabase } from '../../../support/postgres';
import type { ServiceProcess } from '../../../support/service-process';
import { startSharedServer } from '../../../support/shared-server';
import { openEvents } from '../../../support/sse';

/** Short, so the stalled holder's lease runs out within seconds; long enough for a busy machine. */
const LEASE_MS = 4000;

describe('an agent lease lost while its holder lives', { timeout: 180_000 }, () => {
  it('the old holder drops its turn and stops its machine once it learns another process took the agent', async () => {
    const server = await startSharedServer({
      processes: 2,
      database: await freshDatabase(),
      config: { cluster: { leaseMs: LEASE_MS } },
    });
    onTestFinished(() => server.stop());
    const [a, b] = server.processes as [ServiceProcess, ServiceProcess];
    const { token, agentId } = server.people[0]!;
    const base = (service: ServiceProcess) => `${service.url}/api/v2/me/agents/${agentId}/conversations`;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const send = async (service: ServiceProcess, conversation: string, content: string) => {
      const sent = await fetch(`${base(service)}/${conversation}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content }),
      });
      expect(sent.status).toBe(202);
      return ((await sent.json()) as { turnId: string }).turnId;
    };
    const created = await fetch(base(a), { method: 'POST', headers });
    const conversation = ((await created.json()) as { id: string }).id;
    const stream = await openEvents(`${base(b)}/${conversation}/events`, token);
    onTestFinished(() => stream.close());

    const long = await send(a, conversation, 'wait 60'); // A takes the agent and runs the turn
    await stream.nextNamed('tool', (d) => d.status === 'in_progress');
    expect(a.output()).toContain(`[${agentId}] starting `);

    process.kill(a.pid, 'SIGSTOP');
    onTestFinished(() => {
      if (a.pid) process.kill(a.pid, 'SIGCONT');
    });
    // B ends the turn nobody runs now, then takes the agent over with the next message.
    const error = await stream.nextNamed('error', undefined, 30_000);
    expect(error.data).toMatchObject({ turnId: long, code: 'service_restarted' });
    const next = await send(b, conversation, 'hello again');
    const ran = await stream.untilDone(next, 60_000);
    expect(ran.at(-1)!.data).toMatchObject({ turnId: next, estado: 'done' });
    expect(b.output()).toContain(`[${agentId}] starting `);

    process.kill(a.pid, 'SIGCONT');
    // A wakes, learns it lost the agent, and stops its machine (the agent process exits).
    await expect
      .poll(() => a.output(), { timeout: 30_000 })
      .toContain(`cluster: lost the lease of agent ${agentId}`);
    await expect.poll(() => a.output(), { timeout: 30_000 }).toContain(`[${agentId}] agent exited`);

    // The record is the new holder's: the old turn ended as an error with no reply, the new one done.
    const thread = await fetch(`${base(b)}/${conversation}`, { headers });
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
