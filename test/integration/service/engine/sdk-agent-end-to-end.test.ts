/**
 * An agent of our own on the official ACP SDK (test/fixtures/sdk-agent.ts) run as the engine of a
 * real local service, end to end over HTTP and SSE: a chat reply, a tool call with a permission
 * the person answers, and an MCP server configured on the agent (a stdio server on the official
 * MCP SDK) passed through `session/new` and used by the agent.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedEvent } from '../../../support/sse';
import { createHarness, type Harness } from '../turns/harness';

const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/${name}`, import.meta.url));
// Absolute, because the agent runs in its workspace, where a bare `tsx` would not resolve.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const underTsx = (file: string) => [process.execPath, '--import', tsx, fixture(file)];
const replyText = (events: ReceivedEvent[]) =>
  events
    .filter((e) => e.event === 'chunk')
    .map((e) => e.data.text)
    .join('');

describe('an ACP SDK agent as an engine', { timeout: 90_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      config: { engines: { 'engine-b': { command: underTsx('sdk-agent.ts') } } },
    });
    const put = await h.api('PUT', `/api/v2/agents/${h.agentId}/files/notes.txt`, 'the notes');
    expect(put.status).toBe(200);
  });
  afterAll(() => h.close());

  async function turn(content: string, extra: Record<string, unknown> = {}) {
    const conversationId = await h.conversation();
    const events = await h.events(conversationId);
    const sent = await h.send(conversationId, { content, ...extra });
    expect(sent.status).toBe(202);
    return { conversationId, events, turnId: sent.body.turnId as string };
  }

  it('chats: a thought and a streamed reply', async () => {
    const { events, turnId } = await turn('hello there');
    const all = await events.untilDone(turnId);
    const text = replyText(all);
    expect(text).toBe('echo: hello there');
    expect(all.some((e) => e.event === 'thought' && e.data.text === 'Echoing.')).toBe(true);
  });

  it('asks permission for a tool call, and runs it once the person allows it', async () => {
    const { conversationId, events, turnId } = await turn('read notes.txt', { permisos: 'preguntar' });
    const permission = await events.nextNamed('permission');
    expect(permission.data).toMatchObject({
      title: 'Read notes.txt',
      options: [
        { optionId: 'allow', kind: 'allow_once' },
        { optionId: 'reject', kind: 'reject_once' },
      ],
    });
    const answered = await h.api('POST', h.path(conversationId, '/permission'), {
      id: permission.data.id,
      optionId: 'allow',
    });
    expect(answered.body).toEqual({ resuelto: true });
    const rest = await events.untilDone(turnId);
    const tools = rest.filter((e) => e.event === 'tool');
    expect(tools.at(-1)?.data).toMatchObject({ kind: 'read', status: 'completed', path: 'notes.txt' });
    const text = replyText(rest);
    expect(text).toBe('read notes.txt: the notes');
  });

  it("passes the agent's MCP servers through session/new, and the agent uses them", async () => {
    const [command, ...args] = underTsx('shout-mcp-server.ts');
    const put = await h.api('PUT', `/api/v2/agents/${h.agentId}/mcp`, {
      servers: [{ name: 'shout', command, args }],
    });
    expect(put.status).toBe(200);
    const { events, turnId } = await turn('mcp quiet words');
    const all = await events.untilDone(turnId);
    const text = replyText(all);
    expect(text).toBe('mcp shout: QUIET WORDS');
  });
});
