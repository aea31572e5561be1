import type {
  Agent,
  Agente,
  AgentList,
  AgentStartingPoint,
  CreateAgentBody,
  MeAgentsResponse,
  NewAgent,
  StartingPoint,
} from '../../shared/api';

/** The wire's agent words -> ours (shared/api/agent.ts), read once here for every layer above. */

export function agentFromWire(wire: Agente): Agent {
  const c = wire.conexion;
  return {
    id: wire.id,
    name: wire.nombre,
    origin: wire.origen,
    protocol: wire.protocolo,
    connection:
      c === null
        ? null
        : c.tipo === 'acp'
          ? { kind: 'acp', host: c.host }
          : { kind: 'partner', agentId: c.agentId },
    needsToken: wire.necesitaToken,
  };
}

export function agentListFromWire(wire: MeAgentsResponse): AgentList {
  return {
    agents: wire.agentes.map(agentFromWire),
    user: { id: wire.usuario.id, ...(wire.usuario.email !== undefined ? { email: wire.usuario.email } : {}) },
  };
}

export function startingPointFromWire(wire: StartingPoint): AgentStartingPoint {
  return { id: wire.id, name: wire.nombre, description: wire.descripcion, skills: wire.skills };
}

export function newAgentToWire(agent: NewAgent): CreateAgentBody {
  return {
    nombre: agent.name,
    ...(agent.startingPoint !== undefined ? { inicio: agent.startingPoint } : {}),
  };
}
