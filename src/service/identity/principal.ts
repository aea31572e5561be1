import type { AgentRecord } from './agents';
import type { RouteSpec } from '../../shared/api';

/** Who is calling: a person through an OAuth access token, or one agent through its `gat_` token. */
export type Principal =
  | { kind: 'oauth'; personId: string; email: string; clientId: string; scopes: string[] }
  | { kind: 'agent'; personId: string; agentId: string };

/** Set by the /api/v2 guard before any handler runs: `c.get('auth')`. */
export interface AuthInfo {
  principal: Principal;
  /** The person the call acts for (the agent's owner for an agent token). */
  personId: string;
  route: RouteSpec;
  /** Path parameters by spec name (`id`, `agentId`, `sessionId`, `path`, `slug`...), decoded. */
  params: Record<string, string>;
  /** The agent named by `{id}`/`{agentId}`, already checked to be the caller's; null on routes without one. */
  agent: AgentRecord | null;
}
