import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHarness, type Harness } from './harness';
import { recordingEngine } from './recording-engine';

// The recording agent uses the MCP servers it gets in session/new like a real agent would, so these tests
// see the lent tools from the agent's side: what it can list and what it can run.
describe('tools lent by the service, as the agent sees them', { timeout: 120_000 }, () => {
  let h: Harness;
  let scratch: string;
  const agent = () => `/api/v2/agents/${h.agentId}`;
  const ask = async (text: string, extra: Record<string, unknown> = {}) =>
    (
      await json(
        await h.call(`${agent()}/try`, {
          method: 'POST',
          json: { text, session: 'tools', reset: true, ...extra },
        }),
      )
    ).text as string;
  const patchTools = (tools: unknown) => h.call(agent(), { method: 'PATCH', json: { tools } });

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'agentdesk-record-'));
    h = await startHarness({
      config: { engines: { 'engine-c': recordingEngine(path.join(scratch, 'r.jsonl')) } },
    });
    expect((await h.call(agent(), { method: 'PATCH', json: { engine: 'engine-c' } })).status).toBe(200);
    await h.call(`${agent()}/files/report.txt`, { method: 'PUT', body: 'the report' });
  });
  afterAll(async () => {
    await h.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists the effective tools of the channel and runs them', async () => {
    expect(await ask('tools')).toBe('tools: account_files, send_file, connectors');
    const sent = await ask('call send_file {"path":"report.txt"}');
    expect(sent).toMatch(/^tool result: /);
    const { url } = JSON.parse(sent.slice('tool result: '.length)) as { url: string };
    expect(await (await fetch(url)).text()).toBe('the report');
    const files = await ask('call account_files');
    expect(files).toContain('report.txt');
  });

  it('a customer channel does not get the owner files', async () => {
    expect(await ask('tools', { as: 'msgapp1', session: '34600111222' })).toBe(
      'tools: send_file, connectors',
    );
    expect(await ask('call account_files', { as: 'msgapp1', session: '34600111222' })).toMatch(
      /^tool error: Refused/,
    );
  });

  it('a vetoed tool disappears from the list and is refused on execution; true brings it back', async () => {
    expect((await patchTools({ canales: { prueba: { send_file: false } } })).status).toBe(200);
    expect(await ask('tools')).toBe('tools: account_files, connectors');
    expect(await ask('call send_file {"path":"report.txt"}')).toBe(
      'tool error: Refused: the tool "send_file" is turned off for this agent on the prueba channel.',
    );
    expect((await patchTools({ gs: { connectors: false } })).status).toBe(200);
    expect(await ask('tools')).toBe('tools: account_files');
    expect(await ask('call connectors')).toMatch(/^tool error: Refused/);

    expect(
      (await patchTools({ gs: { connectors: true }, canales: { prueba: { send_file: true } } })).status,
    ).toBe(200);
    expect(await ask('tools')).toBe('tools: account_files, send_file, connectors');
  });

  it('the MCP address refuses a caller without the agent and channel token', async () => {
    const url = `${h.service.url}/gs-mcp/${h.agentId}/prueba`;
    const call = (auth?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await call()).status).toBe(401);
    expect((await call('Bearer forged')).status).toBe(401);
    expect((await fetch(`${h.service.url}/gs-mcp/${h.agentId}/nowhere`, { method: 'POST' })).status).toBe(
      401,
    );
  });
});
