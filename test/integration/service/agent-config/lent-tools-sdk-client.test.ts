import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lentToolsServer } from '../../../../src/service/agent-config/lent-tools';
import { startHarness, type Harness } from './harness';

/**
 * The service's lent tools seen by the official MCP SDK client over Streamable HTTP, as any
 * MCP-capable agent would: initialize, list, call, a refused tool, and the SDK's own errors.
 */
describe('lent tools through the official MCP client', { timeout: 60_000 }, () => {
  let h: Harness;
  const clients: Client[] = [];

  beforeAll(async () => {
    h = await startHarness();
    await h.call(`/api/v2/agents/${h.agentId}/files/notes.txt`, { method: 'PUT', body: 'hello' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await h.close();
  });

  async function connect(headers?: Record<string, string>): Promise<Client> {
    const entry = lentToolsServer(
      h.service.url,
      h.service.context.agentConfig.signingKey,
      h.agentId,
      'prueba',
    );
    const client = new Client({ name: 'sdk-test-agent', version: '1.0.0' });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: { headers: headers ?? entry.headers },
    });
    await client.connect(transport);
    return client;
  }

  it('negotiates the protocol and lists the tools of the channel', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toEqual({ name: 'agentdesk-gs', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['account_files', 'send_file', 'connectors']);
    expect(tools.every((tool) => tool.inputSchema.type === 'object')).toBe(true);
  });

  it('runs a tool and returns its text', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'send_file', arguments: { path: 'notes.txt' } });
    expect(result.isError).toBeFalsy();
    const [first] = result.content as { type: string; text: string }[];
    const { url } = JSON.parse(first!.text) as { url: string };
    expect(await (await fetch(url)).text()).toBe('hello');
  });

  it('answers an unknown method with the SDK method-not-found error', async () => {
    const client = await connect();
    await expect(client.listResources()).rejects.toMatchObject({ code: -32601 });
  });

  it('refuses a client without the channel token', async () => {
    await expect(connect({ Authorization: 'Bearer forged' })).rejects.toThrow(/401|Unauthorized/);
  });
});
