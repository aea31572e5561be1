import { Hono } from 'hono';
import { apiRoutes } from '../../shared/api';
import { callerAgent } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { registerRoute } from '../http/register-route';

/** POST agents/{id}/try: one test turn of the agent, answered when it ends (agent-config/try-runner.ts). */
export function agentTryRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  registerRoute(app, apiRoutes.tryAgent, async (c, { body }) => {
    const agent = callerAgent(c);
    const outcome = await ctx.agentConfig.tryRunner.run({
      agentId: agent.id,
      engine: agent.engine,
      text: body.text,
      session: body.session,
      reset: body.reset === true,
      ...(body.as ? { as: body.as } : {}),
      ...(await ctx.agentConfig.turnOptions(agent.id, body.as ?? 'prueba')),
    });
    if (!outcome.ok) {
      const { code, message } = outcome.refusal;
      // The spec's 402 for a spent allowance carries `message`, like POST messages'.
      if (code === 'quota_exhausted') return c.json({ error: 'quota_exhausted', message }, 402);
      return errorJson(c, 409, 'turno_en_curso', message);
    }
    const reply = outcome.value;
    // A turn that ended in an error before saying anything is the engine's failure (502), with the same body.
    return c.json(reply, reply.text === '' && reply.error !== null ? 502 : 200);
  });

  return app;
}
