import { describe, expect, it } from 'vitest';
import { agentListFromWire } from '../../../../src/core/api/agent-words';
import { MeAgentsResponse } from '../../../../src/shared/api';

// A server may give an agent's direct connection with its token (api-v2.md, `conexion`). The app never uses
// it, and the list goes to the page and into the stored copy: the token stays on the wire.
describe('the agent list in our words', () => {
  const wire = MeAgentsResponse.parse({
    agentes: [
      {
        id: 'a1',
        nombre: 'Machine',
        origen: 'gs',
        protocolo: 'acp',
        conexion: { tipo: 'acp', host: 'machine.local', token: 'secret-acp-token' },
        necesitaToken: false,
      },
      {
        id: 'a2',
        nombre: 'Partner',
        origen: 'partner',
        protocolo: 'sse',
        conexion: { tipo: 'partner', agentId: 'p-9', token: 'secret-partner-token' },
        necesitaToken: true,
      },
    ],
    usuario: { id: 'u1' },
  });

  it('keeps how each agent is reached, without its token', () => {
    const list = agentListFromWire(wire);
    expect(list.agents.map((a) => a.connection)).toEqual([
      { kind: 'acp', host: 'machine.local' },
      { kind: 'partner', agentId: 'p-9' },
    ]);
    expect(JSON.stringify(list)).not.toMatch(/secret-(acp|partner)-token/);
  });
});
