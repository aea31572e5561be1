import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsxCommand } from '../../../support/tsx-command';
import { json, startHarness, type Harness } from './harness';

/**
 * Our extension GET /api/v2/agents/{id}/mcp/status (issue 39, item 6), over real HTTP on the real service:
 * each saved MCP server is reached with the official MCP client as the agent would (a local command in
 * the agent's workspace): a real stdio MCP server answers with its tool; a missing command and a port
 * nothing listens on are reported with why, in words.
 */

const shout = fileURLToPath(new URL('../../../fixtures/shout-mcp-server.ts', import.meta.url));
let h: Harness;

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('MCP server status', { timeout: 60_000 }, () => {
  it('says which servers answer with their tools, and why the others do not', async () => {
    const agent = `/api/v2/agents/${h.agentId}`;
    const [command, ...args] = tsxCommand(shout);
    const port = await closedPort();
    const servers = [
      { name: 'shout', command, args },
      { name: 'missing', command: 'no-such-mcp-command-here' },
      { name: 'devtools', url: `http://127.0.0.1:${port}/mcp` },
    ];
    const saved = await h.call(`${agent}/mcp`, { method: 'PUT', json: { servers } });
    expect(saved.status).toBe(200);

    const res = await h.call(`${agent}/mcp/status`);
    expect(res.status).toBe(200);
    const body = (await json(res)) as {
      servidores: { name: string; conectado: boolean; herramientas: string[]; detalle?: string }[];
    };
    expect(body.servidores).toEqual([
      { name: 'shout', conectado: true, herramientas: ['shout'] },
      {
        name: 'missing',
        conectado: false,
        herramientas: [],
        detalle: 'The command "no-such-mcp-command-here" was not found.',
      },
      {
        name: 'devtools',
        conectado: false,
        herramientas: [],
        detalle: `Nothing answers at http://127.0.0.1:${port}.`,
      },
    ]);
  });
});
