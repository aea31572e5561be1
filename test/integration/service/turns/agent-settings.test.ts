/**
 * A conversation turn runs with the agent's saved settings: its MCP servers reach
 * `session/new`, and its saved model is used unless the conversation chose one.
 * The engine is a small recording ACP agent (a real process over stdio).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHarness, type Harness } from '../agent-config/harness';
import { readRecord, recordingEngine } from '../agent-config/recording-engine';

describe('conversation turns use the agent settings', { timeout: 120_000 }, () => {
  let h: Harness;
  let scratch: string;
  let recordFile: string;
  const agent = () => `/api/v2/agents/${h.agentId}`;
  const conversations = () => `/api/v2/me/agents/${h.agentId}/conversations`;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'agentdesk-settings-'));
    recordFile = path.join(scratch, 'engine-c.jsonl');
    h = await startHarness({ config: { engines: { 'engine-c': recordingEngine(recordFile) } } });
    expect((await h.call(agent(), { method: 'PATCH', json: { engine: 'engine-c' } })).status).toBe(200);
  });
  afterAll(async () => {
    await h.close();
    await rm(scratch, { recursive: true, force: true });
  });

  async function sendAndWait(sessionId: string, content: string): Promise<void> {
    const sent = await h.call(`${conversations()}/${sessionId}/messages`, {
      method: 'POST',
      json: { content },
    });
    expect(sent.status).toBe(202);
    const { turnId } = await json(sent);
    for (let i = 0; i < 200; i += 1) {
      const thread = await json(await h.call(`${conversations()}/${sessionId}`));
      if (thread.ultimoTurno?.turnId === turnId && thread.ultimoTurno.estado === 'done') return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the turn did not finish');
  }

  it('passes the saved MCP servers and model to the agent', async () => {
    const local = { name: 'files', command: 'mcp-files', args: ['--root', '.'] };
    expect((await h.call(`${agent()}/mcp`, { method: 'PUT', json: { servers: [local] } })).status).toBe(200);
    expect((await h.call(agent(), { method: 'PATCH', json: { model: 'rec-large' } })).status).toBe(200);
    const { id } = await json(await h.call(conversations(), { method: 'POST' }));
    await sendAndWait(id, 'hello');
    const record = readRecord(recordFile);
    const opened = record.filter((e) => e.event === 'session/new').at(-1);
    expect(opened?.mcpServers).toContainEqual(
      expect.objectContaining({ name: 'files', command: 'mcp-files' }),
    );
    expect(record.filter((e) => e.event === 'prompt').at(-1)).toMatchObject({
      text: 'hello',
      model: 'rec-large',
    });
  });

  it('lets a model chosen for the conversation win over the saved one', async () => {
    const { id } = await json(await h.call(conversations(), { method: 'POST' }));
    expect(
      (await h.call(`${conversations()}/${id}/model`, { method: 'POST', json: { model: 'rec-small' } }))
        .status,
    ).toBe(200);
    await sendAndWait(id, 'second');
    expect(
      readRecord(recordFile)
        .filter((e) => e.event === 'prompt')
        .at(-1),
    ).toMatchObject({
      text: 'second',
      model: 'rec-small',
    });
  });
});
