import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentWorkspaceDir } from '../../../../src/service/engine';
import type { ReceivedEvent } from '../../../support/sse';
import { createHarness, type Harness } from './harness';

// Real service, real demo agent processes, real SSE. The only seam is the closing hook, which
// holds a turn in its (normally brief) closing phase so the "already closing" row can be hit.

const text = (events: ReceivedEvent[]) =>
  events
    .filter((e) => e.event === 'chunk')
    .map((e) => e.data.text)
    .join('');

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Holds the next closing turn until released. */
const gate = { armed: false, entered: deferred(), release: deferred() };
function armGate() {
  gate.armed = true;
  gate.entered = deferred();
  gate.release = deferred();
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: {
      maxMachines: 1,
      turns: {
        hooks: {
          closing: async () => {
            if (!gate.armed) return;
            gate.armed = false;
            gate.entered.resolve();
            await gate.release.promise;
          },
        },
      },
    },
  });
});
afterAll(() => {
  gate.release.resolve();
  return h?.close();
});

/** A conversation whose turn has ended its reply and is held in its closing phase by the gate. */
async function turnHeldClosing() {
  const id = await h.conversation();
  const stream = await h.events(id);
  armGate();
  const first = await h.send(id, { content: 'hello' });
  await gate.entered.promise;
  return { id, stream, oldId: first.body.turnId as string };
}

describe('replacement of a closing turn', () => {
  it('the requester replaces it: the old turn is stopped and a new one runs', async () => {
    const { id, stream, oldId } = await turnHeldClosing();
    const second = await h.send(id, { content: 'echo replacement' });
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ reemplazoAnterior: true, inyectado: false, estado: 'running' });
    const newId = second.body.turnId as string;
    expect(newId).not.toBe(oldId);
    const old = await stream.untilDone(oldId);
    expect(old.at(-1)).toMatchObject({ event: 'done', data: { turnId: oldId, estado: 'stopped' } });
    const fresh = await stream.untilDone(newId);
    expect(fresh[0]).toMatchObject({ event: 'started', data: { turnId: newId } });
    expect(fresh.at(-1)).toMatchObject({ data: { turnId: newId, estado: 'done' } });
    expect(text(fresh)).toContain('replacement');
    gate.release.resolve();
  });

  it('someone else cannot replace it: their turn waits, queued, until it closes', async () => {
    const { id, stream, oldId } = await turnHeldClosing();
    const other = await h.secondClient();
    const second = await h.send(id, { content: 'echo from the other device' }, other);
    expect(second.body).toMatchObject({ reemplazoAnterior: false, inyectado: false, estado: 'queued' });
    const newId = second.body.turnId as string;
    expect(
      (await h.api<{ ultimoTurno: { turnId: string; estado: string } }>('GET', h.path(id))).body.ultimoTurno,
    ).toEqual(expect.objectContaining({ turnId: newId, estado: 'queued' }));
    gate.release.resolve();
    const old = await stream.untilDone(oldId);
    expect(old.at(-1)).toMatchObject({ data: { turnId: oldId, estado: 'done' } });
    const next = await stream.untilDone(newId);
    // Its events start once it becomes the conversation's turn: it runs at once then.
    expect(next[0]).toMatchObject({ event: 'started', data: { turnId: newId } });
    expect(next).toContainEqual(
      expect.objectContaining({ event: 'status', data: { phase: 'running', turnId: newId } }),
    );
    expect(next.at(-1)).toMatchObject({ data: { turnId: newId, estado: 'done' } });
  });
});

describe('the awake cap and restart', () => {
  it('a turn waiting for a machine is queued (enCola), then runs', async () => {
    const me = (await h.service.context.identity.persons.findByEmail('person@example.test'))!;
    const other = await h.service.context.identity.agents.create(me.id, {
      name: 'Second',
      engine: 'engine-b',
      protocol: 'acp',
    });
    const busy = await h.conversation();
    const busyStream = await h.events(busy);
    const long = await h.send(busy, { content: 'wait 2' });
    await busyStream.nextNamed('tool', (d) => d.status === 'in_progress');

    const base = `/api/v2/me/agents/${other.id}/conversations`;
    const conv = (await h.api<{ id: string }>('POST', base)).body.id;
    const { openEvents } = await import('../../../support/sse');
    const stream = await openEvents(`${h.service.url}${base}/${conv}/events`, h.token);
    try {
      const res = await h.api<Record<string, unknown>>('POST', `${base}/${conv}/messages`, { content: 'hi' });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ estado: 'queued', enCola: 1 });
      const view = await h.api<{ ultimoTurno: { estado: string } }>('GET', `${base}/${conv}`);
      expect(view.body.ultimoTurno.estado).toBe('queued');
      const events = await stream.untilDone(res.body.turnId as string, 20_000);
      const phases = events.filter((e) => e.event === 'status').map((e) => e.data.phase);
      expect(phases).toEqual(['queued', 'running']);
      expect(events.at(-1)).toMatchObject({ data: { estado: 'done' } });
      await busyStream.untilDone(long.body.turnId as string);
    } finally {
      stream.close();
    }
  });

  it('restart interrupts a running turn and the workspace survives', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const wrote = await h.send(id, { content: 'write notes/keep.txt\n```\nkept\n```' });
    await stream.untilDone(wrote.body.turnId as string);
    const long = await h.send(id, { content: 'wait 30' });
    await stream.nextNamed('tool', (d) => d.status === 'in_progress');
    const restarted = await h.api('POST', `/api/v2/agents/${h.agentId}/restart`);
    expect(restarted.status).toBe(200);
    expect(restarted.body).toMatchObject({ reiniciado: true });
    const events = await stream.untilDone(long.body.turnId as string);
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'status', data: expect.objectContaining({ phase: 'interrumpido' }) }),
    );
    expect(events.at(-1)).toMatchObject({ data: { estado: 'stopped' } });
    expect(
      readFileSync(join(agentWorkspaceDir(h.service.dataDir, h.agentId), 'notes/keep.txt'), 'utf8'),
    ).toBe('kept');
    const read = await h.send(id, { content: 'read notes/keep.txt' });
    expect(text(await stream.untilDone(read.body.turnId as string))).toContain('kept');
  });
});
