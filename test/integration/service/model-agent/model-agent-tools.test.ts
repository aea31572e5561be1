import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  startAnthropicServer,
  startOpenAiServer,
  type ScriptedProvider,
} from '../../../support/scripted-providers';
import { handed, startModelAgent } from './model-agent-harness';

/**
 * The model agent's tools over ACP against the scripted providers: a tool's result goes back to the
 * provider in the next request, writes ask permission (allowed, always allowed, rejected), a write
 * lands on disk with its diff, and a path outside the workspace is refused.
 */

const KEYS = { openai: 'test-key-openai', anthropic: 'test-key-anthropic' } as const;

async function scripted(kind: 'openai' | 'anthropic'): Promise<ScriptedProvider> {
  const options = { apiKey: KEYS[kind], models: ['test-model'], fallback: { text: 'Scripted title' } };
  const server = kind === 'openai' ? await startOpenAiServer(options) : await startAnthropicServer(options);
  onTestFinished(() => server.close());
  return server;
}

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;
const toolUpdates = (updates: SessionUpdate[]) =>
  updates.filter(
    (u): u is ToolUpdate => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update',
  );

describe.each(['openai', 'anthropic'] as const)('the model agent’s tools on %s', (kind) => {
  it('reads a file and sends its content back to the provider', async () => {
    const server = await scripted(kind);
    const agent = await startModelAgent();
    await writeFile(join(agent.workspace, 'notes.md'), 'The otter sleeps at noon.');
    const handoff = { providers: [handed(server, kind, KEYS[kind])] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply(
      { toolCalls: [{ id: 'call_read', name: 'read_file', input: { path: 'notes.md' } }] },
      { text: 'It sleeps at noon.' },
    );
    const answer = await agent.prompt(sessionId, 'When does the otter sleep?', handoff);
    expect(answer.stopReason).toBe('end_turn');
    expect(agent.said()).toBe('It sleeps at noon.');
    const second = JSON.stringify(server.modelRequests()[1]!.body);
    expect(second).toContain('The otter sleeps at noon.');
    const calls = toolUpdates(agent.updates);
    expect(calls[0]).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 'call_read',
      kind: 'read',
      status: 'pending',
      title: 'Read notes.md',
    });
    expect(calls.at(-1)).toMatchObject({ toolCallId: 'call_read', status: 'completed' });
    expect(agent.permissions).toHaveLength(0); // reading does not ask
  });

  it('asks before writing, writes the file, and shows the diff', async () => {
    const server = await scripted(kind);
    const agent = await startModelAgent();
    const handoff = { providers: [handed(server, kind, KEYS[kind])] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply(
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', input: { path: 'plans/todo.md', content: '- buy milk\n' } },
        ],
      },
      { text: 'Written.' },
    );
    await agent.prompt(sessionId, 'Write my todo list', handoff);
    expect(await readFile(join(agent.workspace, 'plans/todo.md'), 'utf8')).toBe('- buy milk\n');
    const [asked] = agent.permissions;
    expect(asked!.toolCall).toMatchObject({
      toolCallId: 'call_w',
      kind: 'edit',
      title: 'Write plans/todo.md',
    });
    expect(asked!.toolCall.content).toEqual([
      { type: 'diff', path: join(agent.workspace, 'plans/todo.md'), oldText: null, newText: '- buy milk\n' },
    ]);
    expect(asked!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const done = toolUpdates(agent.updates).find((u) => u.status === 'completed')!;
    expect(done.content).toContainEqual({
      type: 'diff',
      path: join(agent.workspace, 'plans/todo.md'),
      oldText: null,
      newText: '- buy milk\n',
    });
    expect(JSON.stringify(server.modelRequests()[1]!.body)).toContain('Wrote 11 bytes to plans/todo.md.');
  });

  it('tells the model when the person rejects a write, and writes nothing', async () => {
    const server = await scripted(kind);
    const agent = await startModelAgent();
    agent.answer = 'reject';
    const handoff = { providers: [handed(server, kind, KEYS[kind])] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply(
      { toolCalls: [{ name: 'delete_file', input: { path: 'keep.txt' } }] },
      { text: 'I left it.' },
    );
    await writeFile(join(agent.workspace, 'keep.txt'), 'precious');
    await agent.prompt(sessionId, 'Delete keep.txt', handoff);
    expect(await readFile(join(agent.workspace, 'keep.txt'), 'utf8')).toBe('precious');
    expect(agent.permissions[0]!.toolCall).toMatchObject({ kind: 'delete' });
    expect(toolUpdates(agent.updates).at(-1)).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(server.modelRequests()[1]!.body)).toContain('refused permission');
  });
});

describe('the model agent’s permissions and workspace bounds', () => {
  it('“always allow” holds for that tool in the session, and edits replace exact text', async () => {
    const server = await scripted('openai');
    const agent = await startModelAgent();
    agent.answer = 'allow-always';
    await writeFile(join(agent.workspace, 'a.txt'), 'colour: red\n');
    const handoff = { providers: [handed(server, 'openai', KEYS.openai)] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply(
      { toolCalls: [{ name: 'edit_file', input: { path: 'a.txt', oldText: 'red', newText: 'blue' } }] },
      { toolCalls: [{ name: 'edit_file', input: { path: 'a.txt', oldText: 'blue', newText: 'green' } }] },
      { text: 'Done twice.' },
    );
    await agent.prompt(sessionId, 'Change the colour twice', handoff);
    expect(await readFile(join(agent.workspace, 'a.txt'), 'utf8')).toBe('colour: green\n');
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]!.toolCall.content).toEqual([
      {
        type: 'diff',
        path: join(agent.workspace, 'a.txt'),
        oldText: 'colour: red\n',
        newText: 'colour: blue\n',
      },
    ]);
  });

  it('refuses a path outside the workspace without asking, and the model hears why', async () => {
    const server = await scripted('anthropic');
    const agent = await startModelAgent();
    const handoff = { providers: [handed(server, 'anthropic', KEYS.anthropic)] };
    const { sessionId } = await agent.newSession(handoff);
    server.reply(
      { toolCalls: [{ name: 'write_file', input: { path: '../escape.txt', content: 'x' } }] },
      { text: 'I cannot.' },
    );
    await agent.prompt(sessionId, 'Write outside', handoff);
    expect(agent.permissions).toHaveLength(0);
    expect(toolUpdates(agent.updates).at(-1)).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(server.modelRequests()[1]!.body)).toContain('outside the workspace');
  });
});
