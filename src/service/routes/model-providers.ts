import { Hono } from 'hono';
import { apiRoutes } from '../../shared/api';
import { callerPersonId } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson, refusalJson, type RefusalAnswers } from '../http/errors';
import { registerRoute } from '../http/register-route';
import type { AddRefusal } from '../providers/provider-registry';

const ADD_ANSWERS: RefusalAnswers<AddRefusal> = {
  key_refused: [400, 'clave_rechazada'],
  unreachable: [400, 'proveedor_inalcanzable'],
  incomplete: [400, 'body_invalido'],
};

/**
 * Our extension (docs/extensions.md, docs/models.md): the person's model providers (`/api/v2/me/model-providers`)
 * and the agent programs this computer offers as engines (`/api/v2/me/agent-programs`). Keys never travel
 * back: answers show them masked.
 */
export function modelProviderRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  registerRoute(app, apiRoutes.listModelProviders, async (c) =>
    c.json({ proveedores: await ctx.providers.list(callerPersonId(c)) }, 200, {
      'Cache-Control': 'no-store',
    }),
  );

  registerRoute(app, apiRoutes.addModelProvider, async (c, { body }) => {
    const added = await ctx.providers.add(callerPersonId(c), body);
    if (!added.ok) return refusalJson(c, added.refusal, ADD_ANSWERS);
    return c.json(added.value, 201, { 'Cache-Control': 'no-store' });
  });

  registerRoute(app, apiRoutes.removeModelProvider, async (c, { params }) => {
    const removed = await ctx.providers.remove(callerPersonId(c), params.providerId);
    if (removed === 'removed') return c.json({ borrado: true });
    if (removed === 'found_here')
      return errorJson(
        c,
        409,
        'proveedor_del_entorno',
        'This provider comes from the service’s environment or a running Ollama; it cannot be removed here.',
      );
    return errorJson(c, 404, 'not_found', 'No such provider.');
  });

  registerRoute(app, apiRoutes.listAgentPrograms, (c) => c.json({ programas: ctx.enginePlaces.list() }));

  registerRoute(app, apiRoutes.setAgentProgram, async (c, { params, body }) => {
    // The command runs on the service's computer: only its owner, the first account made here, chooses it.
    const owner = await ctx.identity.persons.first();
    if (owner?.id !== callerPersonId(c))
      return errorJson(
        c,
        403,
        'solo_propietario',
        'Only the owner of this service can choose the agent programs it runs.',
      );
    const set = await ctx.enginePlaces.set(params.motor, body);
    if (!set.ok) return errorJson(c, 400, 'body_invalido', set.refusal.message);
    // The agents on that place start the new program with their next turn.
    await ctx.engines.stopEngine(params.motor);
    return c.json({ programas: set.value });
  });

  return app;
}
