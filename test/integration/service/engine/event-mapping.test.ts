/**
 * ACP session updates → engine events, with the built-in demo agent running
 * as a real process over stdio. One host and one agent machine for the file.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentWorkspaceDir } from '../../../../src/service/engine';
import { base64, makeHost, startTurn, type Harness, type TurnInput } from './engine-harness';

let h: Harness;
let workspace: string;
const agentId = 'agent-events';
let conversation = 0;
/** A turn in a fresh conversation of the test agent. */
const input = (content: string, extra: Partial<TurnInput> = {}): TurnInput => ({
  agentId,
  engine: 'engine-b',
  conversationId: `conv-${++conversation}`,
  content,
  ...extra,
});

beforeAll(async () => {
  h = await makeHost();
  workspace = agentWorkspaceDir(h.dataDir, agentId);
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(join(workspace, 'notes', 'hello.txt'), 'Hello from the workspace.\n');
  await writeFile(join(workspace, 'readme.md'), '# Project\n');
}, 60_000);

afterAll(async () => {
  await h.close();
});

describe('event mapping with the demo agent', { timeout: 60_000 }, () => {
  it('maps thoughts, chunks, models, usage and caps of a plain reply', async () => {
    const { handle, rec } = startTurn(h.host, input('How are you today?'));
    expect(handle.queued).toBe(false);
    expect(await handle.done).toEqual({ stopReason: 'end_turn' });

    expect(rec.events[0]).toEqual({ type: 'caps', image: true });
    expect(rec.of('models')[0]).toEqual({
      type: 'models',
      options: [
        { id: 'demo-fast', label: 'Demo Fast' },
        { id: 'demo-deep', label: 'Demo Deep' },
      ],
      current: 'demo-fast',
    });
    // It thinks before it answers, and answers in several pieces.
    const firstThought = rec.events.findIndex((e) => e.type === 'thought');
    const firstChunk = rec.events.findIndex((e) => e.type === 'chunk');
    expect(firstThought).toBeGreaterThan(-1);
    expect(firstThought).toBeLessThan(firstChunk);
    expect(rec.of('chunk').length).toBeGreaterThanOrEqual(3);
    expect(rec.text).toContain('You said: "How are you today?"');
    expect(rec.thoughts).toContain('start of our conversation');

    const usage = rec.of('usage');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ type: 'usage', size: 32_768, currency: 'USD' });
    expect(usage[0]!.used).toBeGreaterThan(0);
    expect(usage[0]!.input).toBeGreaterThan(0);
    expect(usage[0]!.output).toBeGreaterThan(0);
    expect(usage[0]!.cost).toBeGreaterThan(0);
    // The last event of the turn is the usage report.
    expect(rec.events.at(-1)?.type).toBe('usage');
  });

  it('remembers earlier messages of the same conversation', async () => {
    const conversationId = `conv-${++conversation}`;
    const first = startTurn(h.host, { ...input('My favourite colour is teal.'), conversationId });
    await first.handle.done;
    const second = startTurn(h.host, { ...input('What did I say?'), conversationId });
    expect(await second.handle.done).toEqual({ stopReason: 'end_turn' });
    expect(second.rec.text).toContain('before this you said: "My favourite colour is teal."');
    expect(second.rec.text).toContain('message 2 of our conversation');
  });

  it('maps "list files" to a read tool call on the workspace', async () => {
    const { handle, rec } = startTurn(h.host, input('list files'));
    expect((await handle.done).stopReason).toBe('end_turn');
    const tools = rec.of('tool');
    expect(tools.length).toBeGreaterThanOrEqual(2);
    const id = tools[0]!.id;
    expect(rec.tool(id).map((t) => t.status)).toEqual(['in_progress', 'completed']);
    expect(rec.tool(id)[0]).toMatchObject({ title: 'List files', kind: 'read', path: '.' });
    expect(rec.text).toContain('notes/hello.txt');
    expect(rec.text).toContain('readme.md');
    expect(rec.text).not.toContain('.agentdesk-demo');
  });

  it('maps "read <path>" to a read tool call carrying the path', async () => {
    const { handle, rec } = startTurn(h.host, input('read notes/hello.txt'));
    expect((await handle.done).stopReason).toBe('end_turn');
    const [first, last] = [rec.of('tool')[0]!, rec.of('tool').at(-1)!];
    expect(first).toMatchObject({
      kind: 'read',
      status: 'in_progress',
      path: 'notes/hello.txt',
      title: 'Read notes/hello.txt',
    });
    expect(last).toMatchObject({ id: first.id, status: 'completed', path: 'notes/hello.txt' });
    expect(rec.text).toContain('Hello from the workspace.');
  });

  it('reports a failed tool call with its detail', async () => {
    const { handle, rec } = startTurn(h.host, input('read missing/nothing.txt'));
    expect((await handle.done).stopReason).toBe('end_turn');
    const last = rec.of('tool').at(-1)!;
    expect(last.status).toBe('failed');
    expect(last.path).toBe('missing/nothing.txt');
    expect(last.detalle).toBeTruthy();
    expect(rec.text).toContain('I could not read missing/nothing.txt');
  });

  it('asks permission before writing, and writes on allow-once', async () => {
    const { handle, rec } = startTurn(h.host, input('write out/poem.txt\n```\nroses are red\n```'), () => ({
      optionId: 'allow-once',
    }));
    expect((await handle.done).stopReason).toBe('end_turn');

    expect(rec.permissions).toHaveLength(1);
    const request = rec.permissions[0]!.request;
    expect(request.id).toMatch(/^perm_/);
    expect(request.title).toBe('Write out/poem.txt');
    expect(request.tool).toMatchObject({ kind: 'edit', status: 'pending', path: 'out/poem.txt' });
    expect(request.options).toEqual([
      { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow-always', name: 'Always allow writes', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ]);
    const id = request.tool.id;
    expect(rec.tool(id).map((t) => t.status)).toEqual(['pending', 'in_progress', 'completed']);
    expect(rec.tool(id).every((t) => t.path === 'out/poem.txt' && t.kind === 'edit')).toBe(true);
    expect(await readFile(join(workspace, 'out', 'poem.txt'), 'utf8')).toBe('roses are red');
    expect(rec.text).toContain('I wrote 13 bytes to out/poem.txt.');
  });

  it('does not write when the permission is rejected', async () => {
    const { handle, rec } = startTurn(h.host, input('write rejected.txt\n```\nnope\n```'), () => ({
      optionId: 'reject',
    }));
    expect((await handle.done).stopReason).toBe('end_turn');
    expect(rec.permissions).toHaveLength(1);
    expect(rec.of('tool').at(-1)).toMatchObject({ status: 'failed', detalle: 'Permission refused.' });
    expect(existsSync(join(workspace, 'rejected.txt'))).toBe(false);
    expect(rec.text).toContain('permission was refused');
  });

  it("turns a denial (expiry) into the agent's reject option", async () => {
    const { handle, rec } = startTurn(h.host, input('write denied.txt\n```\nnope\n```'), () => ({
      denied: true,
    }));
    expect((await handle.done).stopReason).toBe('end_turn');
    expect(existsSync(join(workspace, 'denied.txt'))).toBe(false);
    expect(rec.text).toContain('permission was refused');
  });

  it('remembers allow-always for the rest of the session', async () => {
    const conversationId = `conv-${++conversation}`;
    const first = startTurn(h.host, { ...input('write always/a.txt\n```\nA\n```'), conversationId }, () => ({
      optionId: 'allow-always',
    }));
    expect((await first.handle.done).stopReason).toBe('end_turn');
    expect(first.rec.permissions).toHaveLength(1);

    const second = startTurn(h.host, { ...input('write always/b.txt\n```\nB\n```'), conversationId });
    expect((await second.handle.done).stopReason).toBe('end_turn');
    expect(second.rec.permissions).toHaveLength(0);
    expect(await readFile(join(workspace, 'always', 'b.txt'), 'utf8')).toBe('B');
  });

  it('passes attachments as content blocks the agent can name', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const { handle, rec } = startTurn(
      h.host,
      input('echo look at these', {
        attachments: [
          { name: 'notes.txt', mimeType: 'text/plain', data: base64('some notes') },
          { name: 'pixel.png', mimeType: 'image/png', data: base64(png) },
          {
            name: 'data.bin',
            mimeType: 'application/octet-stream',
            data: base64(new Uint8Array([0, 1, 2, 255])),
          },
        ],
      }),
    );
    expect((await handle.done).stopReason).toBe('end_turn');
    expect(rec.text).toContain('look at these');
    expect(rec.text).toContain(
      'I received 3 attachments: notes.txt (text/plain, 10 bytes), pixel.png (image/png, 16 bytes), data.bin (application/octet-stream, 4 bytes).',
    );
  });

  it('ends the turn with an error when the agent fails the prompt', async () => {
    const { handle, rec } = startTurn(h.host, input('fail'));
    const result = await handle.done;
    expect(result).toMatchObject({ stopReason: 'error', errorCode: 'agent_error' });
    expect(result.error).toContain('Failed on purpose');
    expect(rec.text).toContain('Failing on purpose');
    // The machine is fine afterwards.
    expect(h.host.isAwake(agentId)).toBe(true);
    expect((await startTurn(h.host, input('still there?')).handle.done).stopReason).toBe('end_turn');
  });

  it('switches models per conversation, and the agent lists them', async () => {
    const conversationId = `conv-${++conversation}`;
    const deep = startTurn(h.host, { ...input('hello deep'), conversationId, model: 'demo-deep' });
    expect((await deep.handle.done).stopReason).toBe('end_turn');
    expect(deep.rec.of('models').at(-1)?.current).toBe('demo-deep');
    expect(deep.rec.text).toContain('(model: demo-deep)');
    expect(deep.rec.thoughts).toContain('demo-deep');
    expect(deep.rec.of('usage')[0]?.size).toBe(131_072);

    // The session keeps its model; another conversation starts on the default.
    const again = startTurn(h.host, { ...input('and now?'), conversationId });
    await again.handle.done;
    expect(again.rec.text).toContain('(model: demo-deep)');
    const other = startTurn(h.host, input('fresh'));
    await other.handle.done;
    expect(other.rec.text).toContain('(model: demo-fast)');

    // An unknown model is ignored rather than failing the turn.
    const unknown = startTurn(h.host, { ...input('odd model'), conversationId, model: 'no-such-model' });
    expect((await unknown.handle.done).stopReason).toBe('end_turn');
    expect(unknown.rec.text).toContain('(model: demo-deep)');

    const models = await h.host.models(agentId, 'engine-b');
    expect(models.options.map((m) => m.id)).toEqual(['demo-fast', 'demo-deep']);
  });

  it('keeps reads and writes inside the workspace', async () => {
    const { handle, rec } = startTurn(h.host, input('write ../escape.txt\n```\nx\n```'), () => ({
      optionId: 'allow-once',
    }));
    expect((await handle.done).stopReason).toBe('end_turn');
    expect(rec.permissions).toHaveLength(0);
    expect(rec.of('tool').at(-1)?.status).toBe('failed');
    expect(existsSync(join(workspace, '..', 'escape.txt'))).toBe(false);
  });
});
