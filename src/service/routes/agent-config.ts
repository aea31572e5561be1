import type { Context } from 'hono';
import { Hono } from 'hono';
import type { z } from 'zod';
import { LIMITS, McpPutBody, apiRoutes, describeZodError, routePath, type RouteSpec } from '../../shared/api';
import { createBundleTransfer } from '../agent-config/bundle-transfer';
import { bundleEtag } from '../agent-config/bundle-etag';
import { CATALOG_PIN, CATALOG_REPO, catalogItems, catalogSkill } from '../agent-config/community-catalog';
import { replaceMcpServers } from '../agent-config/mcp-replace';
import { validateMcpServers } from '../agent-config/mcp-servers';
import { agentMcpStates } from '../agent-config/mcp-status';
import { installSkill } from '../agent-config/skill-install';
import {
  agentConfigBody,
  agentConfigPatch,
  appliedBundleBody,
  installedSkillBody,
  patchRefusals,
  savedAgentConfigBody,
  wireFieldPaths,
} from './agent-config-bodies';
import { SkillError } from '../agent-config/skills-store';
import {
  PreconditionFailed,
  WorkspaceFiles,
  etagOfBytes,
  listingEtag,
} from '../agent-config/workspace-files';
import { WorkspacePathError, resolveInside } from '../workspace/workspace-paths';
import { callerAgent, notFound } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson, refusalJson } from '../http/errors';
import {
  registerRoute,
  type ErrorAnswer,
  type RouteHandler,
  type RouteOptions,
} from '../http/register-route';

const fileTooLarge = (): ErrorAnswer => ({
  error: 'archivo demasiado grande',
  detalle: `A workspace file is capped at ${LIMITS.workspaceFileBytesMax} bytes (10 MB).`,
});
const skillTooLarge = (): ErrorAnswer => ({
  error: 'archivo demasiado grande',
  detalle: `A skill install payload is capped at ${LIMITS.skillPayloadBytesMax} bytes (25 MB).`,
});

/** Workspace, skill and conditional-write errors in the API's shape; anything else is a fault. */
function agentError(c: Context, err: unknown): Response {
  // Our extension: a conditional write (If-Match / If-None-Match) on a file that moved.
  if (err instanceof PreconditionFailed) return errorJson(c, 412, 'version_distinta', err.message);
  if (err instanceof SkillError) return errorJson(c, 400, 'skill_invalida', err.message);
  if (!(err instanceof WorkspacePathError)) throw err;
  if (err.code === 'not_found') return notFound(c, err.message);
  return errorJson(c, 400, 'ruta_invalida', err.message);
}

/** A 400 `mcp_invalido` that names the server: the service's own checks first, then the contract's. */
function invalidMcp(_part: string, error: z.ZodError, value: unknown): ErrorAnswer {
  const servers = (value as { servers?: unknown } | undefined)?.servers;
  if (servers === undefined) return { error: 'mcp_invalido', detalle: '"servers" is required.' };
  const checked = validateMcpServers(servers);
  if (!checked.ok) return { error: 'mcp_invalido', detalle: checked.message };
  const name = checked.servers[Number(error.issues[0]?.path[1])]?.name ?? '?';
  return { error: 'mcp_invalido', detalle: `MCP server "${name}": ${describeZodError(error)}` };
}

/** `/api/v2/agents/{id}` and everything under it (credential AT), plus the public catalog folders. */
export function agentConfigRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const area = () => ctx.agentConfig;
  const restart = (agentId: string, engine: string) => ctx.engines.restart(agentId, engine);
  const bundles = () => createBundleTransfer({ service: area().service, store: area().store, restart });

  /** A route of this area, with workspace and skill errors mapped. */
  const on = <R extends RouteSpec>(route: R, handler: RouteHandler<R>, options: RouteOptions = {}) =>
    registerRoute(
      app,
      route,
      async (c, input) => {
        try {
          return await handler(c, input);
        } catch (err) {
          return agentError(c, err);
        }
      },
      options,
    );

  /** 409 `agente_no_acp` for an agent whose engine has no machine, before any input is read. */
  const noMachine = (c: Context<AppEnv>): Response | null => {
    const agent = callerAgent(c);
    return area().service.hasMachine(agent.engine)
      ? null
      : c.json({ error: 'agente_no_acp', motor: agent.engine }, 409);
  };
  /** The routes that need the agent's machine: files, skills, MCP, restart. */
  const onMachine = <R extends RouteSpec>(route: R, handler: RouteHandler<R>, options: RouteOptions = {}) =>
    on(route, handler, { ...options, before: noMachine });

  // --- Configuration -------------------------------------------------------------------------

  on(apiRoutes.getAgent, async (c, { query }) => {
    const named = query.fields?.split(',').map((f) => f.trim());
    const fields = named ? new Set(['id', ...named.filter(Boolean)]) : undefined;
    const config = await area().service.view(callerAgent(c), { full: query.full === '1', fields });
    return c.json(agentConfigBody(config));
  });

  on(apiRoutes.patchAgent, async (c, { body }) => {
    const agent = callerAgent(c);
    const outcome = await area().service.patch(agent, agentConfigPatch(body));
    if (outcome.ok) return c.json(savedAgentConfigBody(outcome.value));
    const { refusal } = outcome;
    // The machine did not start with a saved change: the answer names the route that retries.
    const retry =
      refusal.code === 'machine_not_applied'
        ? ` Retry POST ${routePath(apiRoutes.restartAgent, { id: agent.id })}.`
        : '';
    const message = `${wireFieldPaths(refusal.message)}${retry}`;
    return refusalJson(c, { ...refusal, message }, patchRefusals);
  });

  // --- Workspace files -----------------------------------------------------------------------

  const workspaceOf = (c: Context<AppEnv>) =>
    new WorkspaceFiles(area().service.layoutOf(callerAgent(c).id).work);
  const files = { invalid: 'ruta_invalida' } as const;

  onMachine(
    apiRoutes.getAgentFiles,
    async (c, { params }) => {
      const workspace = workspaceOf(c);
      const rel = workspace.parse(params.path, { allowRoot: true });
      // Our extension: the bytes of a file when asked for with Accept: application/octet-stream.
      if ((c.req.header('Accept') ?? '').includes('application/octet-stream')) {
        const found = await resolveInside(workspace.root, rel);
        if (found.stat?.isFile()) {
          const bytes = await workspace.read(rel);
          return c.body(new Uint8Array(bytes), 200, {
            'Content-Type': 'application/octet-stream',
            'Content-Length': String(bytes.byteLength),
            ETag: etagOfBytes(bytes),
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': 'no-store',
          });
        }
      }
      const listing = await workspace.list(rel);
      // Our extension: the listing's version, so a poller gets 304 while nothing moved.
      const version = listingEtag(listing);
      if (c.req.header('If-None-Match') === version) return c.body(null, 304, { ETag: version });
      return c.json(listing, 200, { ETag: version });
    },
    files,
  );

  onMachine(
    apiRoutes.putAgentFile,
    async (c, { params, body }) => {
      const workspace = workspaceOf(c);
      const rel = workspace.parse(params.path);
      if (body.byteLength === 0)
        return errorJson(c, 400, 'body_invalido', 'The body is empty: send the file bytes.');
      const conditions = { ifMatch: c.req.header('If-Match'), ifNoneMatch: c.req.header('If-None-Match') };
      const { etag, ...written } = await workspace.write(rel, body, conditions);
      return c.json(written, 200, { ETag: etag });
    },
    { ...files, tooLarge: fileTooLarge },
  );

  onMachine(
    apiRoutes.deleteAgentFile,
    async (c, { params }) => {
      const workspace = workspaceOf(c);
      await workspace.delete(workspace.parse(params.path), { ifMatch: c.req.header('If-Match') });
      return c.json({ ok: true });
    },
    files,
  );

  // --- Skills --------------------------------------------------------------------------------

  const skillsOf = (c: Context<AppEnv>) => {
    const agent = callerAgent(c);
    return area().service.skillsOf(agent.id, agent.engine);
  };

  onMachine(apiRoutes.getAgentSkills, async (c) => {
    const skills = await skillsOf(c).list();
    return c.json({ skills, community: catalogItems(ctx.baseUrl, new Set(skills.map((s) => s.slug))) });
  });

  onMachine(
    apiRoutes.putAgentSkill,
    async (c, { params, body }) => {
      const installed = await installSkill(skillsOf(c), params.slug, body);
      return installed
        ? c.json(installedSkillBody(installed))
        : notFound(c, `"${params.slug}" is not in the community catalog.`);
    },
    { invalid: 'skill_invalida', tooLarge: skillTooLarge },
  );

  onMachine(
    apiRoutes.deleteAgentSkill,
    async (c, { params }) =>
      (await skillsOf(c).remove(params.slug))
        ? c.json({ ok: true })
        : notFound(c, `No skill "${params.slug}" is installed.`),
    { invalid: 'skill_invalida' },
  );

  // --- MCP -----------------------------------------------------------------------------------

  onMachine(apiRoutes.getAgentMcp, async (c) =>
    c.json({ servers: (await area().store.read(callerAgent(c).id)).mcp }),
  );

  onMachine(apiRoutes.getAgentMcpStatus, async (c) =>
    c.json({ servidores: await agentMcpStates(area(), callerAgent(c).id) }),
  );

  onMachine(
    apiRoutes.putAgentMcp,
    async (c, { body }) => {
      // The service's own rules (names, reserved names) on top of the contract's schema.
      const checked = validateMcpServers(body.servers);
      if (!checked.ok) return errorJson(c, 400, 'mcp_invalido', checked.message);
      const contract = McpPutBody.safeParse({ servers: checked.servers });
      if (!contract.success) {
        const answer = invalidMcp('body', contract.error, { servers: checked.servers });
        return errorJson(c, 400, answer.error, answer.detalle);
      }
      const agent = callerAgent(c);
      const deps = { service: area().service, store: area().store, restart };
      const { restarted } = await replaceMcpServers(deps, agent, checked.servers);
      return c.json({ servers: checked.servers, reiniciado: restarted });
    },
    { invalid: invalidMcp },
  );

  // --- Restart (try: ./agent-try.ts) ---------------------------------------------------------

  onMachine(apiRoutes.restartAgent, async (c) => {
    const agent = callerAgent(c);
    const { restarted, sandboxId } = await restart(agent.id, agent.engine);
    return c.json({ reiniciado: restarted, sandboxId });
  });

  // --- Bundle --------------------------------------------------------------------------------

  on(apiRoutes.getAgentBundle, async (c) => {
    const bundle = await bundles().exportBundle(callerAgent(c));
    // Our extension: the bundle's version, so the sync's poll gets 304 while nothing moved.
    const version = bundleEtag(bundle.files);
    if (c.req.header('If-None-Match') === version) return c.body(null, 304, { ETag: version });
    return c.json(bundle, 200, { ETag: version });
  });

  on(apiRoutes.postAgentBundle, async (c, { body }) => {
    const applied = await bundles().applyBundle(callerAgent(c), body.files);
    if (!applied.ok) {
      const detalle = `"${applied.tooLarge}" is over 10 MB; nothing was applied.`;
      return errorJson(c, 413, fileTooLarge().error, detalle);
    }
    return c.json(appliedBundleBody(applied.result));
  });

  // --- msgapp1 numbers -----------------------------------------------------------------------

  on(apiRoutes.getAgentMsgapp1, async (c) => c.json(await area().msgapp1.view(callerAgent(c).id)));

  on(apiRoutes.putAgentMsgapp1, async (c, { body }) => {
    const agent = callerAgent(c);
    const result = await area().msgapp1.put(agent.id, body.numbers);
    if (!result.ok) {
      const detalle = `Unknown number id(s): ${result.unknown.join(', ')}; use numbers[].id from GET.`;
      return errorJson(c, 400, 'body_invalido', detalle);
    }
    return c.json({ ...(await area().msgapp1.view(agent.id)), cambiados: result.changed });
  });

  // --- Public: the vendored catalog folders (a catalog item's `url`) --------------------------

  registerRoute(app, apiRoutes.catalogSkillFolder, (c, { params }) => {
    const item = catalogSkill(params.slug);
    if (!item) return notFound(c, 'No such catalog skill.');
    return c.json({
      slug: item.slug,
      repo: CATALOG_REPO,
      pin: CATALOG_PIN,
      license: item.license,
      files: item.files,
    });
  });

  return app;
}
