import { z } from 'zod';
import type { MsgappNumber } from './resources';
import { CreateAgentBody } from './routes/agent-management';

/**
 * An agent, the person's agent list, a machine's restart and its msgapp1 numbers, in our words. The API client (core/api/agent-words.ts) reads them
 * from the wire's `Agente` and `MeAgentsResponse` and writes `NewAgent` as the wire's `CreateAgentBody`;
 * every other layer uses only these names (docs/architecture.md, glossary).
 */

/**
 * How an agent is reached (the wire's `conexion`, told apart by `tipo`). Its `token` is left on the wire: the
 * app never uses it, and a token never reaches the page or a file in plain text (docs/security.md).
 */
export type AgentConnection = { kind: 'acp'; host: string } | { kind: 'partner'; agentId: string };

/** One agent of the person's list (the wire's `Agente`). */
export interface Agent {
  id: string;
  /** `nombre` */
  name: string;
  /** `origen`: made on this server (`gs`) or a partner's. */
  origin: 'gs' | 'partner';
  /** `protocolo` */
  protocol: 'acp' | 'sse' | 'http';
  /** `conexion` */
  connection: AgentConnection | null;
  /** `necesitaToken`: an ACP agent without an access key (agent token) yet. */
  needsToken: boolean;
}

/** Who is signed in (the wire's `usuario`); `email` only with the `profile` scope. */
export interface AccountUser {
  id: string;
  email?: string;
}

/** The person's agents and who they are (the wire's `{agentes, usuario}`). */
export interface AgentList {
  agents: Agent[];
  user: AccountUser;
}

/** A starting point for a new agent: a prompt and catalog skills (the wire's `inicio`, our extension). */
export interface AgentStartingPoint {
  id: string;
  name: string;
  description: string;
  /** Catalog skills installed into a new agent made from it. */
  skills: string[];
}

/** A new agent (our extension): its name and, optionally, the id of a starting point. */
export const NewAgent = z.strictObject({
  name: CreateAgentBody.shape.nombre,
  startingPoint: CreateAgentBody.shape.inicio,
});
export type NewAgent = z.infer<typeof NewAgent>;

/** A restarted agent machine (the wire's `RestartResult`: `reiniciado` -> `restarted`). */
export interface AgentRestart {
  restarted: boolean;
  sandboxId: string;
}

/** The agent's business-chat (msgapp1) numbers (the wire's `MsgappNumbers`: `cambiados` -> `changed`). */
export interface MsgappNumberList {
  numbers: Pick<MsgappNumber, 'id' | 'label' | 'mine' | 'takenByOther'>[];
  /** Without a workspace there are no numbers to link. */
  hasWorkspace: boolean;
  hasSales: boolean;
  /** Where to pair a new number. */
  salesUrl: string | null;
  /** How many numbers the last change moved (only after a change). */
  changed?: number;
}
