import { Hono } from 'hono';
import { apiRoutes, type ApprovalRule, type ApprovalRules } from '../../shared/api';
import type { StoredRule } from '../agent-config/approval-rules';
import { callerAgent, notFound } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { refusalJson } from '../http/errors';
import { registerRoute } from '../http/register-route';

const ruleBody = (rule: StoredRule): ApprovalRule => ({
  id: rule.id,
  efecto: rule.effect === 'allow' ? 'permitir' : 'denegar',
  herramienta: rule.tool,
  carpeta: rule.folder,
  creada: new Date(rule.madeAt).toISOString(),
});

/** Our extension: an agent's approval rules, shared by every device of the person (docs/extensions.md). */
export function approvalRuleRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const rules = ctx.agentConfig.approvalRules;

  registerRoute(app, apiRoutes.listApprovalRules, async (c) => {
    const body: ApprovalRules = { reglas: (await rules.list(callerAgent(c).id)).map(ruleBody) };
    return c.json(body);
  });

  registerRoute(app, apiRoutes.addApprovalRule, async (c, { body }) => {
    const added = await rules.add(
      callerAgent(c).id,
      {
        effect: body.efecto === 'permitir' ? 'allow' : 'deny',
        tool: body.herramienta,
        folder: body.carpeta ?? null,
      },
      ctx.clock.now(),
    );
    if (!added.ok) return refusalJson(c, added.refusal, { too_many: [409, 'demasiadas_reglas'] });
    return c.json(ruleBody(added.value.rule), added.value.created ? 201 : 200);
  });

  registerRoute(app, apiRoutes.removeApprovalRule, async (c, { params }) => {
    if (!(await rules.remove(callerAgent(c).id, params.ruleId))) return notFound(c);
    return c.json({ id: params.ruleId, borrada: true as const });
  });

  return app;
}
