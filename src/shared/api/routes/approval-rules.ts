import { z } from 'zod';
import { DateTime } from '../common';
import { PersonAgentParams } from '../requests';
import { defineRoute, invalid, JSON_BODY_MAX, notFound, ok } from './define-route';

/**
 * Our extension (docs/extensions.md): an agent's approval rules, kept by the server so that every device
 * of the person answers the same permission requests the same way. The client does the answering, through
 * the spec's POST permission; a server without these routes has the rules kept on each computer.
 * A client detects it by `listApprovalRules` in `/openapi.yaml`.
 */
const RULES = '/api/v2/me/agents/{agentId}/approval-rules';

/** `permitir` answers a matching request with an allow option, `denegar` with a reject one; a deny wins. */
export const RuleEffect = z.enum(['permitir', 'denegar']);
export type RuleEffect = z.infer<typeof RuleEffect>;

export const AddApprovalRuleBody = z.strictObject({
  efecto: RuleEffect,
  /** What asks: the tool call's `kind` (`edit`, `execute`...) where it has one, else the request's `tool`. */
  herramienta: z.string().trim().min(1).max(200),
  /** Only requests whose path is this folder or under it; absent or null for any path. */
  carpeta: z.string().trim().min(1).max(1024).nullable().optional(),
});
export type AddApprovalRuleBody = z.infer<typeof AddApprovalRuleBody>;

export const ApprovalRule = z.looseObject({
  id: z.string(),
  efecto: RuleEffect,
  herramienta: z.string(),
  carpeta: z.string().nullable(),
  creada: DateTime,
});
export type ApprovalRule = z.infer<typeof ApprovalRule>;
export const ApprovalRules = z.looseObject({ reglas: z.array(ApprovalRule) });
export type ApprovalRules = z.infer<typeof ApprovalRules>;
export const ApprovalRuleParams = PersonAgentParams.extend({ ruleId: z.string().min(1).max(128) });
export type ApprovalRuleParams = z.infer<typeof ApprovalRuleParams>;
export const ApprovalRuleRemoved = z.looseObject({ id: z.string(), borrada: z.literal(true) });
export type ApprovalRuleRemoved = z.infer<typeof ApprovalRuleRemoved>;

export const approvalRulesSection = [
  defineRoute({
    operationId: 'listApprovalRules',
    method: 'GET',
    path: RULES,
    tag: 'agents',
    summary: 'The agent’s approval rules, oldest first',
    description:
      'Our extension. The rules the person made from permission cards ("Always allow") or in Settings.',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: PersonAgentParams },
    responses: { 200: ok('The rules.', ApprovalRules), 404: notFound },
    extension: true,
  }),
  defineRoute({
    operationId: 'addApprovalRule',
    method: 'POST',
    path: RULES,
    tag: 'agents',
    summary: 'Add an approval rule to the agent',
    description:
      'Our extension. The same rule twice (effect, tool and folder) answers the one already kept, with 200 instead of 201. At most 200 rules per agent (409 `demasiadas_reglas`).',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: PersonAgentParams,
      body: { kind: 'json', schema: AddApprovalRuleBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      201: ok('The new rule.', ApprovalRule),
      200: ok('That rule was already kept.', ApprovalRule),
      400: invalid('A body that is not a rule.'),
      404: notFound,
      409: invalid('200 rules already (`demasiadas_reglas`).'),
    },
    extension: true,
  }),
  defineRoute({
    operationId: 'removeApprovalRule',
    method: 'DELETE',
    path: `${RULES}/{ruleId}`,
    tag: 'agents',
    summary: 'Remove an approval rule',
    description: 'Our extension. The next matching request asks the person again.',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ApprovalRuleParams },
    responses: { 200: ok('Removed.', ApprovalRuleRemoved), 404: notFound },
    extension: true,
  }),
] as const;
