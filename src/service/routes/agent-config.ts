import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  AgentConfigQuery,
  BundleBody,
  LIMITS,
  McpPutBody,
  MsgappPutBody,
  PatchAgentBody,
  SkillPutBody,
  TryBody,
  describeZodError,
} from '../../shared/api';
import { SKILLS_DIR } from '../agents/agent-layout';
import { assembleBundle, namedSkillSlugs, planBundle } from '../agents/bundle';
import {
  CATALOG_PATH,
  CATALOG_PIN,
  CATALOG_REPO,
  catalogItems,
  catalogSkill,
} from '../agents/community-catalog';
import { validateMcpServers } from '../agents/mcp-servers';
import { SkillError, checkSlug, type SkillFile } from '../agents/skills-store';
import { engineOf } from '../agents/subsystem';
import {
  PreconditionFailed,
  WorkspaceFiles,
  etagOfBytes,
  listingEtag,
  machinePath,
} from '../agents/workspace-files';
import { WorkspacePathError, resolveInside } from '../agents/workspace-paths';
import { callerAgent, callerAuth, notFound } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { readBodyLimited } from '../http/read-body';
import type { AgentRecord } from '../identity/agents';
import { readJsonBody } from './json-body';

const SMALL_JSON_MAX = 1024 * 1024;
/** Whole POST bundle body (our choice); each file inside is capped at 10 MB as the spec says. */
const BUNDLE_BODY_MAX = 100 * 1024 * 1024;
const FILE_TOO_LARGE = {
  error: 'archivo demasiado grande',
  detalle: `A workspace file is capped at ${LIMITS.workspaceFileBytesMax} bytes (10 MB).`,
};
const SKILL_TOO_LARGE = {
  error: 'archivo demasiado grande',
  detalle: `A skill install payload is capped at ${LIMITS.skillPayloadBytesMax} bytes (25 MB).`,
};

/** `/api/v2/agents/{id}` and everything under it (credential AT), plus the public catalog folders. */
export function agentConfigRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const area = () => ctx.agentConfig;
  const base = '/api/v2/agents/:id';

  /** 409 `agente_no_acp` for an agent whose engine has no machine (files, skills, MCP, restart). */
  const noMachine = (c: Context, agent: AgentRecord): Response | null =>
    area().service.hasMachine(agent.engine)
      ? null
      : c.json({ error: 'agente_no_acp', motor: agent.engine }, 409);

  const pathError = (c: Context, err: unknown): Response => {
    // Our extension: a conditional write (If-Match / If-None-Match) on a file that moved.
    if (err instanceof PreconditionFailed) return errorJson(c, 412, 'version_distinta', err.message);
    if (!(err instanceof WorkspacePathError)) throw err;
    if (err.code === 'not_found') return notFound(c, err.message);
    return errorJson(c, 400, 'ruta_invalida', err.message);
  };

  // --- Configuration -------------------------------------------------------------------------

  app.get(base, async (c) => {
    const query = AgentConfigQuery.safeParse(c.req.query());
    if (!query.success) return errorJson(c, 400, 'body_invalido', describeZodError(query.error));
    const fields =
      query.data.fields !== undefined
        ? new Set([
            'id',
            ...query.data.fields
              .split(',')
              .map((f) => f.trim())
              .filter(Boolean),
          ])
        : undefined;
    return c.json(await area().service.view(callerAgent(c), { full: query.data.full === '1', fields }));
  });

  app.patch(base, async (c) => {
    const body = await readJsonBody(c, PatchAgentBody, { maxBytes: SMALL_JSON_MAX });
    if (!body.ok) return body.response;
    const outcome = await area().service.patch(callerAgent(c), body.value);
    return c.json(outcome.body, outcome.status);
  });

  // --- Workspace files -----------------------------------------------------------------------

  const workspaceOf = (agent: AgentRecord) => new WorkspaceFiles(area().service.layoutOf(agent.id).work);
  const rawPath = (c: Context<AppEnv>) => callerAuth(c).params['path'] ?? '';
  /** The files routes: a machine agent's workspace, with path errors in the API's shape. */
  const inWorkspace = async (c: Context<AppEnv>, handle: (files: WorkspaceFiles) => Promise<Response>) => {
    const agent = callerAgent(c);
    const refused = noMachine(c, agent);
    if (refused) return refused;
    try {
      return await handle(workspaceOf(agent));
    } catch (err) {
      return pathError(c, err);
    }
  };

  app.get(`${base}/files/*`, (c) =>
    inWorkspace(c, async (files) => {
      const rel = files.parse(rawPath(c), { allowRoot: true });
      // Our extension: the bytes of a file when asked for with Accept: application/octet-stream.
      if ((c.req.header('Accept') ?? '').includes('application/octet-stream')) {
        const found = await resolveInside(files.root, rel);
        if (found.stat?.isFile()) {
          const bytes = await files.read(rel);
          return c.body(new Uint8Array(bytes), 200, {
            'Content-Type': 'application/octet-stream',
            'Content-Length': String(bytes.byteLength),
            ETag: etagOfBytes(bytes),
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': 'no-store',
          });
        }
      }
      const listing = await files.list(rel);
      // Our extension: the listing's version, so a poller gets 304 while nothing moved.
      const version = listingEtag(listing);
      if (c.req.header('If-None-Match') === version) return c.body(null, 304, { ETag: version });
      return c.json(listing, 200, { ETag: version });
    }),
  );

  app.put(`${base}/files/*`, (c) =>
    inWorkspace(c, async (files) => {
      const rel = files.parse(rawPath(c));
      const bytes = await readBodyLimited(c.req.raw, LIMITS.workspaceFileBytesMax);
      if (bytes === 'too_large') return errorJson(c, 413, FILE_TOO_LARGE.error, FILE_TOO_LARGE.detalle);
      if (bytes.byteLength === 0)
        return errorJson(c, 400, 'body_invalido', 'The body is empty: send the file bytes.');
      const conditions = { ifMatch: c.req.header('If-Match'), ifNoneMatch: c.req.header('If-None-Match') };
      const written = await files.write(rel, bytes, conditions);
      return c.json(written, 200, { ETag: etagOfBytes(bytes) });
    }),
  );

  app.delete(`${base}/files/*`, (c) =>
    inWorkspace(c, async (files) => {
      await files.delete(files.parse(rawPath(c)), { ifMatch: c.req.header('If-Match') });
      return c.json({ ok: true });
    }),
  );

  // --- Skills --------------------------------------------------------------------------------

  app.get(`${base}/skills`, async (c) => {
    const agent = callerAgent(c);
    const refused = noMachine(c, agent);
    if (refused) return refused;
    const skills = await area().service.skillsOf(agent.id, agent.engine).list();
    return c.json({ skills, community: catalogItems(ctx.baseUrl, new Set(skills.map((s) => s.slug))) });
  });

  app.put(`${base}/skills/:slug`, async (c) => {
    const agent = callerAgent(c);
    const refused = noMachine(c, agent);
    if (refused) return refused;
    const slug = c.req.param('slug');
    try {
      checkSlug(slug);
    } catch (err) {
      return errorJson(c, 400, 'skill_invalida', (err as Error).message);
    }
    const body = await readJsonBody(c, SkillPutBody, {
      error: 'skill_invalida',
      maxBytes: LIMITS.skillPayloadBytesMax,
      tooLarge: SKILL_TOO_LARGE,
    });
    if (!body.ok) return body.response;
    let markdown: string;
    let assets: SkillFile[];
    let source: string;
    if (body.value.fromCatalog) {
      const item = catalogSkill(slug);
      if (!item) return notFound(c, `"${slug}" is not in the community catalog.`);
      markdown = item.files['SKILL.md'] ?? '';
      assets = Object.entries(item.files)
        .filter(([name]) => name !== 'SKILL.md')
        .map(([name, text]) => ({ name, bytes: Buffer.from(text, 'utf8') }));
      source = ` from the community catalog (${CATALOG_REPO}, pinned ${CATALOG_PIN})`;
    } else {
      markdown = body.value.markdown ?? '';
      assets = (body.value.assets ?? []).map((a) => ({
        name: a.name,
        bytes: Buffer.from(a.contentBase64, 'base64'),
      }));
      source = '';
    }
    try {
      const installed = await area().service.skillsOf(agent.id, agent.engine).install(slug, markdown, assets);
      const where = machinePath(`${SKILLS_DIR}/${slug}`);
      return c.json({
        slug,
        files: installed.files,
        bytes: installed.bytes,
        nota: `Installed${source} in ${where}, where the agent sees it; it is used from the agent's next conversation.`,
      });
    } catch (err) {
      if (err instanceof SkillError) return errorJson(c, 400, 'skill_invalida', err.message);
      return pathError(c, err);
    }
  });

  app.delete(`${base}/skills/:slug`, async (c) => {
    const agent = callerAgent(c);
    const refused = noMachine(c, agent);
    if (refused) return refused;
    const slug = c.req.param('slug');
    try {
      checkSlug(slug);
      const removed = await area().service.skillsOf(agent.id, agent.engine).remove(slug);
      return removed ? c.json({ ok: true }) : notFound(c, `No skill "${slug}" is installed.`);
    } catch (err) {
      if (err instanceof SkillError) return errorJson(c, 400, 'skill_invalida', err.message);
      return pathError(c, err);
    }
  });

  // --- MCP -----------------------------------------------------------------------------------

  app.get(`${base}/mcp`, (c) => {
    const agent = callerAgent(c);
    return noMachine(c, agent) ?? c.json({ servers: area().store.read(agent.id).mcp });
  });

  app.put(`${base}/mcp`, async (c) => {
    const agent = callerAgent(c);
    const refused = noMachine(c, agent);
    if (refused) return refused;
    const body = await readJsonBody(c, z.looseObject({ servers: z.unknown().optional() }), {
      maxBytes: SMALL_JSON_MAX,
    });
    if (!body.ok) return body.response;
    if (body.value.servers === undefined) return errorJson(c, 400, 'mcp_invalido', '"servers" is required.');
    const checked = validateMcpServers(body.value.servers);
    if (!checked.ok) return errorJson(c, 400, 'mcp_invalido', checked.message);
    // The contract's schema must agree; if it does not, name the server it rejects.
    const contract = McpPutBody.safeParse({ servers: checked.servers });
    if (!contract.success) {
      const index = Number(contract.error.issues[0]?.path[1]);
      const name = checked.servers[index]?.name ?? '?';
      return errorJson(c, 400, 'mcp_invalido', `MCP server "${name}": ${describeZodError(contract.error)}`);
    }
    const settings = area().store.read(agent.id);
    settings.mcp = checked.servers;
    area().store.write(agent.id, settings);
    await area().service.writeMachine(agent, settings);
    const { reiniciado } = await engineOf(ctx).restart(agent.id, agent.engine);
    return c.json({ servers: checked.servers, reiniciado });
  });

  // --- Restart and try -----------------------------------------------------------------------

  app.post(`${base}/restart`, async (c) => {
    const agent = callerAgent(c);
    const refused = noMachine(c, agent);
    if (refused) return refused;
    return c.json(await engineOf(ctx).restart(agent.id, agent.engine));
  });

  app.post(`${base}/try`, async (c) => {
    const agent = callerAgent(c);
    const body = await readJsonBody(c, TryBody, { maxBytes: SMALL_JSON_MAX });
    if (!body.ok) return body.response;
    const outcome = await area().tryRunner.run({
      agentId: agent.id,
      engine: agent.engine,
      text: body.value.text,
      session: body.value.session,
      reset: body.value.reset === true,
      ...(body.value.as ? { as: body.value.as } : {}),
      ...area().turnOptions(agent.id, body.value.as ?? 'prueba'),
    });
    return c.json(outcome.body, outcome.status);
  });

  // --- Bundle --------------------------------------------------------------------------------

  app.get(`${base}/bundle`, async (c) => {
    const agent = callerAgent(c);
    const settings = area().store.read(agent.id);
    try {
      const entries = await assembleBundle({
        prompt: settings.prompt,
        mcp: settings.mcp,
        skills: area().service.skillsOf(agent.id, agent.engine),
        knowledgeBase: area().service.knowledgeBaseOf(agent.id, agent.engine),
      });
      return c.json({
        layout: 'dir',
        files: entries.map((e) => ({ path: e.path, contentBase64: Buffer.from(e.bytes).toString('base64') })),
      });
    } catch (err) {
      return pathError(c, err);
    }
  });

  app.post(`${base}/bundle`, async (c) => {
    const agent = callerAgent(c);
    const body = await readJsonBody(c, BundleBody, { maxBytes: BUNDLE_BODY_MAX });
    if (!body.ok) return body.response;
    const planned = planBundle(body.value.files);
    if (!planned.ok) {
      return errorJson(
        c,
        413,
        FILE_TOO_LARGE.error,
        `"${planned.tooLarge}" is over 10 MB; nothing was applied.`,
      );
    }
    const { plan } = planned;
    const service = area().service;
    const settings = area().store.read(agent.id);
    const mcpChanged = plan.mcp !== null && JSON.stringify(plan.mcp) !== JSON.stringify(settings.mcp);
    if (plan.prompt !== null) settings.prompt = plan.prompt;
    if (plan.mcp !== null) settings.mcp = plan.mcp;
    try {
      // Resolved first: a knowledge folder that is a link refuses the bundle before anything changes.
      const knowledge = service.knowledgeBaseOf(agent.id, agent.engine);
      const folder = knowledge.parse('knowledge');
      const existing = await resolveInside(knowledge.root, folder);
      const skills = service.skillsOf(agent.id, agent.engine);
      const named = namedSkillSlugs(body.value.files);
      const removedSkills: string[] = [];
      for (const skill of await skills.list()) {
        if (!named.has(skill.slug)) {
          await skills.remove(skill.slug);
          removedSkills.push(skill.slug);
        }
      }
      for (const [slug, skill] of plan.skills) await skills.install(slug, skill.markdown, skill.assets);
      if (existing.stat) await knowledge.delete(folder);
      for (const entry of plan.knowledge) await knowledge.write(knowledge.parse(entry.path), entry.bytes);
      area().store.write(agent.id, settings);
      await service.writeMachine(agent, settings);
      let restartNote = '';
      if (mcpChanged && service.hasMachine(agent.engine)) {
        const { reiniciado } = await engineOf(ctx).restart(agent.id, agent.engine);
        restartNote = reiniciado
          ? ' The MCP list changed, so the agent was restarted.'
          : ' The MCP list changed, but the agent did not restart; retry POST restart.';
      }
      const nota =
        'The posted files were taken as the whole bundle: what it lacks was removed' +
        (removedSkills.length ? ` (skills: ${removedSkills.join(', ')})` : '') +
        '.' +
        restartNote +
        (plan.reasons.length ? ` Ignored: ${plan.reasons.join(' ')}` : '');
      return c.json({ aplicado: plan.aplicado, ignorado: plan.ignorado, nota });
    } catch (err) {
      if (err instanceof SkillError) return errorJson(c, 400, 'skill_invalida', err.message);
      return pathError(c, err);
    }
  });

  // --- msgapp1 numbers -----------------------------------------------------------------------

  app.get(`${base}/msgapp1`, (c) => c.json(area().msgapp1.view(callerAgent(c).id)));

  app.put(`${base}/msgapp1`, async (c) => {
    const agent = callerAgent(c);
    const body = await readJsonBody(c, MsgappPutBody, { maxBytes: SMALL_JSON_MAX });
    if (!body.ok) return body.response;
    const result = area().msgapp1.put(agent.id, body.value.numbers);
    if (!result.ok) {
      return errorJson(
        c,
        400,
        'body_invalido',
        `Unknown number id(s): ${result.unknown.join(', ')}; use numbers[].id from GET.`,
      );
    }
    return c.json({ ...area().msgapp1.view(agent.id), cambiados: result.cambiados });
  });

  // --- Public: the vendored catalog folders (a catalog item's `url`) --------------------------

  app.get(`${CATALOG_PATH}/:slug`, (c) => {
    const item = catalogSkill(c.req.param('slug'));
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
