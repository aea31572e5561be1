import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  startAnthropicServer,
  startOpenAiServer,
  type ScriptedProvider,
} from '../../../support/scripted-providers';
import { handed, startModelAgent } from './model-agent-harness';

/**
 * A turn's life over ACP against the scripted providers: cancel mid-stream reaches the provider's
 * request, the step limit, the context cut from the oldest end, the title after the first reply, the
 * conversation kept across a restart, a price, and the tools of an MCP server.
 */

const KEYS = { openai: 'test-key-openai', anthropic: 'test-key-anthropic' } as const;

async function scripted(
  kind: 'openai' | 'anthropic',
  fallback?: { text: string },
): Promise<ScriptedProvider> {
  const options = { apiKey: KEYS[kind], models: ['test-model'], ...(fallback ? { fallback } : {}) };
  const server = kind === 'openai' ? await startOpenAiServer(options) : await startAnthropicServer(options);
  onTestFinished(() => server.close());
  return server;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
  }
}

describe.each(['openai', 'anthropic'] as const)('a model agent turn on %s', (kind) => {
  it('stops at once on cancel: the provider sees its connection close, the turn ends cancelled', async () => {
    const server = await scripted(kind);
    const agent = await startModelAgent();
    const handoff = { providers: [handed(server, kind, KEYS[kind])] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply({ text: 'one two three four five six', stallAfterPieces: 2 });
    const answer = agent.prompt(sessionId, 'Count', handoff);
    await until(() => agent.said() === 'one two ', 'the first words');
    await agent.cancel(sessionId);
    expect((await answer).stopReason).toBe('cancelled');
    expect(await server.modelRequests()[0]!.closed).toBe(true);
  });

  it('writes a title after its first reply, once', async () => {
    const server = await scripted(kind, { text: '"Otters and their naps."' });
    const agent = await startModelAgent();
    const handoff = { providers: [handed(server, kind, KEYS[kind])] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply({ text: 'Otters nap at noon.' });
    await agent.prompt(sessionId, 'When do otters nap?', handoff);
    const titles = () => agent.updates.filter((u) => u.sessionUpdate === 'session_info_update');
    expect(titles()).toEqual([{ sessionUpdate: 'session_info_update', title: 'Otters and their naps' }]);
    const titleRequest = server.modelRequests()[1]!.body as { stream?: boolean };
    expect(titleRequest.stream).not.toBe(true);
    expect(JSON.stringify(titleRequest)).toContain('Otters nap at noon.');
    server.reply({ text: 'Yes.' });
    await agent.prompt(sessionId, 'Really?', handoff);
    expect(titles()).toHaveLength(1);
    expect(server.modelRequests()).toHaveLength(3);
  });
});

describe('a model agent turn', () => {
  it('ends with a plain sentence at the step limit', async () => {
    const server = await scripted('openai');
    const agent = await startModelAgent();
    const handoff = { providers: [handed(server, 'openai', KEYS.openai)] };
    const { sessionId } = await agent.newSession(handoff);
    for (let i = 0; i < 26; i++) server.reply({ toolCalls: [{ name: 'list_files', input: {} }] });
    const answer = await agent.prompt(sessionId, 'Keep listing', handoff);
    expect(answer.stopReason).toBe('max_turn_requests');
    expect(server.modelRequests()).toHaveLength(25);
    expect(agent.said()).toContain('this turn reached its limit of 25 tool steps');
  });

  it('leaves the oldest messages out when the conversation outgrows the context, and says so', async () => {
    const server = await scripted('anthropic');
    const agent = await startModelAgent();
    const handoff = {
      providers: [
        handed(server, 'anthropic', KEYS.anthropic, [
          { id: 'test-model', label: 'Tiny', contextWindow: 600 },
        ]),
      ],
    };
    const { sessionId } = await agent.newSession(handoff);
    server.reply({ text: 'Noted.' }, { text: 'Remembering' }, { text: 'Hello again.' }); // reply, title, reply
    await agent.prompt(sessionId, `Remember this: ${'otter '.repeat(300)}`, handoff);
    expect(agent.thoughts()).not.toContain('left out');
    await agent.prompt(sessionId, 'Hi', handoff);
    expect(agent.thoughts()).toContain('its 2 oldest messages were left out');
    const second = JSON.stringify(server.modelRequests()[2]!.body);
    expect(second).not.toContain('Remember this');
    expect(second).toContain('Hi');
  });

  it('keeps the conversation across a restart (session/load replays it and the model reads it)', async () => {
    const server = await scripted('openai');
    const first = await startModelAgent();
    const handoff = { providers: [handed(server, 'openai', KEYS.openai)] };
    const { sessionId } = await first.newSession(handoff);
    server.reply({ text: 'Nice to meet you, Ada.' });
    await first.prompt(sessionId, 'My name is Ada.', handoff);
    await first.stop();

    const second = await startModelAgent({ workspace: first.workspace });
    await second.load(sessionId, handoff);
    expect(second.updates.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'agent_message_chunk']);
    server.reply({ text: 'You are Ada.' });
    await second.prompt(sessionId, 'Who am I?', handoff);
    const sent = JSON.stringify(server.modelRequests().at(-1)!.body);
    expect(sent).toContain('My name is Ada.');
    expect(sent).toContain('Nice to meet you, Ada.');
  });

  it('reports the cost where the model’s price is known', async () => {
    const server = await scripted('openai');
    const agent = await startModelAgent();
    const priced = [
      { id: 'test-model', label: 'Priced', contextWindow: 10_000, price: { input: 2, output: 10 } },
    ];
    const handoff = { providers: [handed(server, 'openai', KEYS.openai, priced)] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply({ text: 'Sure.', usage: { input: 1000, output: 100 } });
    await agent.prompt(sessionId, 'Price?', handoff);
    const usage = agent.updates.find((u) => u.sessionUpdate === 'usage_update');
    // 1000 × $2/M + 100 × $10/M = $0.003
    expect(usage).toMatchObject({ used: 1100, size: 10_000, cost: { amount: 0.003, currency: 'USD' } });
  });

  it('offers an MCP server’s tools, asking first, and sends their results back', async () => {
    const server = await scripted('anthropic');
    const agent = await startModelAgent();
    const handoff = { providers: [handed(server, 'anthropic', KEYS.anthropic)] };
    const fixture = fileURLToPath(new URL('../../../fixtures/shout-mcp-server.ts', import.meta.url));
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const mcp = { name: 'shout', command: process.execPath, args: ['--import', tsx, fixture], env: [] };
    const { sessionId } = await agent.newSession(handoff, [mcp]);
    server.reply(
      { toolCalls: [{ name: 'shout__shout', input: { text: 'quiet please' } }] },
      { text: 'It shouted.' },
    );
    await agent.prompt(sessionId, 'Shout it', handoff);
    const tools = (server.modelRequests()[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['read_file', 'write_file', 'shout__shout']));
    expect(agent.permissions[0]!.toolCall).toMatchObject({ kind: 'other', title: 'shout (shout)' });
    expect(JSON.stringify(server.modelRequests()[1]!.body)).toContain('QUIET PLEASE');
  });

  it('reads the agent’s prompt (promptMode), its skills and its knowledge, and a fork’s history', async () => {
    const server = await scripted('anthropic', { text: 'Title' });
    const agent = await startModelAgent();
    const machine = join(dirname(agent.workspace), 'machine');
    await mkdir(machine, { recursive: true });
    const config = { prompt: 'You are Pip, who answers in rhymes.', promptMode: 'replace' };
    await writeFile(join(machine, 'config.json'), JSON.stringify(config));
    await mkdir(join(agent.workspace, '.agents/skills/haiku'), { recursive: true });
    await writeFile(
      join(agent.workspace, '.agents/skills/haiku/SKILL.md'),
      '---\nname: haiku\ndescription: Writes haiku about anything.\n---\nCount the syllables.',
    );
    await mkdir(join(agent.workspace, 'knowledge'), { recursive: true });
    await writeFile(join(agent.workspace, 'knowledge/otters.md'), 'Otters hold hands.');
    const handoff = { providers: [handed(server, 'anthropic', KEYS.anthropic)] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply({ text: 'A rhyme.' });
    const history = [
      { role: 'user', content: 'Earlier question' },
      { role: 'assistant', content: 'Earlier answer' },
    ];
    await agent.prompt(
      sessionId,
      [
        { type: 'text', text: 'What was said before.', _meta: { 'agentdesk/history': history } },
        { type: 'text', text: 'Go on' },
      ],
      handoff,
    );
    const body = server.modelRequests()[0]!.body as {
      system: { text: string }[];
      messages: { role: string; content: unknown }[];
    };
    const system = JSON.stringify(body.system);
    expect(system).toContain('You are Pip, who answers in rhymes.');
    expect(system).not.toContain('You are an assistant working in the person’s workspace');
    expect(system).toContain('haiku: Writes haiku about anything. (.agents/skills/haiku/SKILL.md)');
    expect(system).toContain('knowledge/otters.md');
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(body.messages)).toContain('Earlier answer');
  });
});
