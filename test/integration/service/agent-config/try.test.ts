import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHarness, type Harness } from './harness';
import { recordingEngine } from './recording-engine';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('POST /api/v2/agents/{id}/try', { timeout: 120_000 }, () => {
  let h: Harness;
  let scratch: string;
  const tryRoute = () => `/api/v2/agents/${h.agentId}/try`;
  const tryTurn = (body: unknown) => h.call(tryRoute(), { method: 'POST', json: body });

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'agentdesk-record-'));
    h = await startHarness({
      config: {
        // A short wait so the time limit is testable; the default is 180 s. Not shorter: the first turn starts
        // the agent's process, which took over 4 s with both cores busy (3 December 2026).
        agentConfig: { tryTimeoutMs: 10_000 },
        engines: { 'engine-c': recordingEngine(path.join(scratch, 'record.jsonl')) },
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('runs one turn and answers {text, error: null, session}', async () => {
    const res = await tryTurn({ text: 'hello try' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.session).toBe('default');
    expect(body.error).toBeNull();
    expect(body.text).toContain('You said: "hello try"');
  });

  it('validates the body and the session key', async () => {
    const cases: unknown[] = [
      {},
      { text: 42 },
      { text: 'x', session: 'a'.repeat(33) },
      { text: 'x', session: 'has space' },
      { text: 'x', session: 'dots.not.allowed' },
      { text: 'x', as: 'msgapp2' },
      { text: 'x', as: 'msgapp1', session: 'default' },
      { text: 'x', as: 'msgapp1', session: '123456789' },
      { text: 'x', as: 'msgapp1', session: '1234567890123456' },
    ];
    for (const body of cases) {
      const res = await tryTurn(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error).toBe('body_invalido');
    }
    expect((await tryTurn({ text: 'x', session: 'a'.repeat(32) })).status).toBe(200);
  });

  it('keeps memory per session, and reset forgets it before sending', async () => {
    await tryTurn({ text: 'my name is Ada', session: 'mem' });
    const second = await json(await tryTurn({ text: 'who am I?', session: 'mem' }));
    expect(second.text).toContain('my name is Ada');
    const other = await json(await tryTurn({ text: 'who am I?', session: 'other' }));
    expect(other.text).not.toContain('my name is Ada');
    const reset = await json(await tryTurn({ text: 'fresh start', session: 'mem', reset: true }));
    expect(reset.text).toContain('first message of our conversation');
  });

  it('allows one turn at a time per session: a second one is 409 turno_en_curso', async () => {
    // Two slow turns sent together: whichever reaches the service first runs, the other finds it
    // running (no guess at how long the first takes to arrive).
    const both = [tryTurn({ text: 'wait 3', session: 'busy' }), tryTurn({ text: 'wait 3', session: 'busy' })];
    const clash = await Promise.race(both);
    expect(clash.status).toBe(409);
    expect((await json(clash)).error).toBe('turno_en_curso');
    // Another session is not blocked.
    const elsewhere = await tryTurn({ text: 'meanwhile', session: 'free' });
    expect(elsewhere.status).toBe(200);
    expect((await Promise.all(both)).map((res) => res.status).sort()).toEqual([200, 409]);
    expect((await tryTurn({ text: 'now?', session: 'busy' })).status).toBe(200);
  });

  it('as msgapp1 runs in its own phone session', async () => {
    const res = await tryTurn({ text: 'hola, quiero una cita', as: 'msgapp1', session: '34600111222' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.session).toBe('34600111222');
    expect(body.text).toContain('hola, quiero una cita');
  });

  it('a failed turn with text keeps the text and says why; the time limit ends a turn', async () => {
    const failed = await json(await tryTurn({ text: 'fail', session: 'f1' }));
    expect(failed.text).toContain('Failing on purpose');
    expect(failed.error).toMatch(/\S/);
    const slow = await tryTurn({ text: 'wait 30', session: 'slow' });
    const body = await json(slow);
    expect(body.session).toBe('slow');
    expect(body.error).toContain('did not finish within 10 s');
    // 502 only when the turn ended without any text; what was said before the limit is kept.
    expect(slow.status).toBe(body.text ? 200 : 502);
  });

  it('a turn that fails without text is 502 with the reason', async () => {
    expect(
      (await h.call(`/api/v2/agents/${h.agentId}`, { method: 'PATCH', json: { engine: 'engine-c' } })).status,
    ).toBe(200);
    const res = await tryTurn({ text: 'fail', session: 'f2' });
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body.text).toBe('');
    expect(body.error).toContain('failed on purpose');
  });

  it('works for house-lite, whose working folder is seeded from the bundle on each turn', async () => {
    expect(
      (await h.call(`/api/v2/agents/${h.agentId}`, { method: 'PATCH', json: { engine: 'house-lite' } }))
        .status,
    ).toBe(200);
    const post = (instructions: string, knowledge: string) =>
      h.call(`/api/v2/agents/${h.agentId}/bundle`, {
        method: 'POST',
        json: {
          layout: 'dir',
          files: [
            { path: 'instructions.md', contentBase64: b64(instructions) },
            { path: `knowledge/${knowledge}`, contentBase64: b64('Opening hours: 9 to 5.') },
          ],
        },
      });
    expect((await post('You run a bakery.\nBe kind.', 'hours.md')).status).toBe(200);
    const hello = await json(await tryTurn({ text: 'hello', session: 'hl' }));
    expect(hello.error).toBeNull();
    expect(hello.text).toContain('My instructions begin: "You run a bakery."');
    expect(hello.text).toContain('Knowledge: hours.md');
    const listing = await json(await tryTurn({ text: 'list files', session: 'hl' }));
    expect(listing.text).toContain('instructions.md');
    expect(listing.text).toContain('knowledge/hours.md');
    expect(listing.text).toContain('mcp.json');
    const read = await json(await tryTurn({ text: 'read knowledge/hours.md', session: 'hl' }));
    expect(read.text).toContain('Opening hours: 9 to 5.');

    // A new bundle is what the next turn's folder holds.
    await post('You run a flower shop.', 'prices.md');
    const next = await json(await tryTurn({ text: 'again', session: 'hl' }));
    expect(next.text).toContain('You run a flower shop.');
    expect(next.text).toContain('Knowledge: prices.md');
    expect(next.text).toContain('before this you said: "read knowledge/hours.md"');
    const reset = await json(await tryTurn({ text: 'again', session: 'hl', reset: true }));
    expect(reset.text).toContain('first message of this session');

    const failed = await tryTurn({ text: 'fail', session: 'hl' });
    expect(failed.status).toBe(502);
    expect((await json(failed)).error).toContain('on purpose');
  });
});
