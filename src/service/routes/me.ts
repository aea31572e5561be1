import { Hono } from 'hono';
import { apiRoutes, type Agente, type DeletedAccount, type MeAgentsResponse } from '../../shared/api';
import { callerAuth } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { firstAgentName, type AgentRecord } from '../identity/agents';
import { firstEngineFor } from '../providers/first-engine';

/** Person-level routes: GET /api/v2/me/agents and DELETE /api/v2/me. The /api/v2 guard has checked the caller. */
export function meRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  registerRoute(app, apiRoutes.getMyAgents, async (c) => {
    const auth = callerAuth(c);
    const firstName = firstAgentName(c.req.header('accept-language'));
    const agentes = (
      await ctx.identity.agents.listEnrolling(auth.personId, firstName, () =>
        firstEngineFor(ctx, auth.personId),
      )
    ).map(toAgente);
    const { principal } = auth;
    const withEmail = principal.kind === 'oauth' && principal.scopes.includes('profile');
    const usuario = withEmail ? { id: auth.personId, email: principal.email } : { id: auth.personId };
    const body: MeAgentsResponse = { agentes, usuario };
    return c.json(body);
  });

  registerRoute(app, apiRoutes.deleteMe, async (c) => {
    const result = await ctx.account.deleteAccount(callerAuth(c).personId);
    if (!result.ok) return errorJson(c, 409, 'bloqueado', result.blocker);
    const body: DeletedAccount = { borrada: true };
    return c.json(body);
  });

  return app;
}

/**
 * The list item. The local service offers no direct connection to an agent (`conexion` is null); an ACP
 * agent `necesitaToken` until its owner creates a `gat_` token for it on the account page.
 */
export function toAgente(agent: AgentRecord): Agente {
  return {
    id: agent.id,
    nombre: agent.name,
    origen: agent.origin,
    protocolo: agent.protocol,
    conexion: null,
    necesitaToken: agent.protocol === 'acp' && !agent.hasLiveToken,
  };
}
