import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentWorkspaceDir } from '../../../../src/service/engine';
import { ManualTimers } from '../../../../src/service/manual-timers';
import { createHarness, type Harness } from './harness';

// Real service and demo agent; only time is injected (ManualTimers) to cross the 10-minute expiry.

const clock = new ManualTimers();
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ clock });
});
afterAll(() => h?.close());

const write = (path: string, text: string) => `write ${path}\n\`\`\`\n${text}\n\`\`\``;
const workspaceFile = (path: string) => join(agentWorkspaceDir(h.service.dataDir, h.agentId), path);

describe('permissions', () => {
  it('approve: the permission event carries options, the answer resolves it, the file is written', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: write('notes/yes.txt', 'approved'), permisos: 'preguntar' });
    const asked = await stream.nextNamed('permission');
    expect(asked.data).toMatchObject({
      id: expect.any(String),
      title: expect.stringContaining('notes/yes.txt'),
    });
    const options = asked.data.options as { optionId: string; kind: string }[];
    expect(options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect((await h.api('POST', h.path(id, '/permission'), { id: asked.data.id })).status).toBe(400);
    const allow = options.find((o) => o.kind === 'allow_once')!.optionId;
    const answer = await h.api('POST', h.path(id, '/permission'), { id: asked.data.id, optionId: allow });
    expect(answer).toMatchObject({ status: 200, body: { resuelto: true } });
    expect(await stream.nextNamed('permission-resolved')).toMatchObject({ data: { id: asked.data.id } });
    await stream.untilDone(res.body.turnId as string);
    expect(readFileSync(workspaceFile('notes/yes.txt'), 'utf8')).toBe('approved');
    // Resolved: no longer open.
    const again = await h.api('POST', h.path(id, '/permission'), { id: asked.data.id, optionId: allow });
    expect(again).toMatchObject({ status: 404, body: { resuelto: false, motivo: 'no_abierto' } });
  });

  it('deny: the file is not written', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: write('notes/no.txt', 'denied'), permisos: 'preguntar' });
    const asked = await stream.nextNamed('permission');
    const reject = (asked.data.options as { optionId: string; kind: string }[]).find(
      (o) => o.kind === 'reject_once',
    )!.optionId;
    expect(
      (await h.api('POST', h.path(id, '/permission'), { id: asked.data.id, optionId: reject })).body,
    ).toEqual({
      resuelto: true,
    });
    const events = await stream.untilDone(res.body.turnId as string);
    expect(events.at(-1)).toMatchObject({ data: { estado: 'done' } });
    expect(existsSync(workspaceFile('notes/no.txt'))).toBe(false);
  });

  it('an unanswered request waits 10 minutes, then is denied', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: write('notes/late.txt', 'too late'), permisos: 'preguntar' });
    const asked = await stream.nextNamed('permission');
    clock.advance(10 * 60 * 1000 - 1000);
    // Still open and the turn still waits.
    const list = await h.api<{ ultimoTurno: { estado: string } }>('GET', h.path(id));
    expect(list.body.ultimoTurno.estado).toBe('running');
    clock.advance(1000);
    expect(await stream.nextNamed('permission-resolved')).toMatchObject({
      data: { id: asked.data.id, por: 'expired' },
    });
    await stream.untilDone(res.body.turnId as string);
    expect(existsSync(workspaceFile('notes/late.txt'))).toBe(false);
    const late = await h.api('POST', h.path(id, '/permission'), {
      id: asked.data.id,
      optionId: 'allow-once',
    });
    expect(late).toMatchObject({ status: 404, body: { resuelto: false, motivo: 'no_abierto' } });
  });

  it('permisos auto answers allow-once by itself', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: write('notes/auto.txt', 'auto') });
    const events = await stream.untilDone(res.body.turnId as string);
    expect(events.some((e) => e.event === 'permission')).toBe(false);
    expect(readFileSync(workspaceFile('notes/auto.txt'), 'utf8')).toBe('auto');
  });
});
