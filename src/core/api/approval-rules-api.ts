import {
  apiRoutes,
  ApprovalRule,
  ApprovalRules,
  ApprovalRuleRemoved,
  type ApprovalRuleView,
} from '../../shared/api';
import { json, type ApiRequest, type CallOptions } from './api-request';

const ruleFromWire = (wire: ApprovalRule): ApprovalRuleView => ({
  id: wire.id,
  effect: wire.efecto === 'permitir' ? 'allow' : 'deny',
  tool: wire.herramienta,
  folder: wire.carpeta,
  madeAt: Date.parse(wire.creada),
});

/** Our service's approval-rules extension (docs/extensions.md): an agent's rules, shared by every device. */
export function approvalRulesApi(http: ApiRequest) {
  return {
    listApprovalRules: (agentId: string, call?: CallOptions) =>
      http.call(
        apiRoutes.listApprovalRules,
        { agentId },
        { read: json(ApprovalRules.transform((v) => v.reglas.map(ruleFromWire))) },
        call,
      ),
    addApprovalRule: (
      agentId: string,
      rule: Pick<ApprovalRuleView, 'effect' | 'tool' | 'folder'>,
      call?: CallOptions,
    ) =>
      http.call(
        apiRoutes.addApprovalRule,
        { agentId },
        {
          read: json(ApprovalRule.transform(ruleFromWire)),
          json: {
            efecto: rule.effect === 'allow' ? 'permitir' : 'denegar',
            herramienta: rule.tool,
            carpeta: rule.folder,
          },
        },
        call,
      ),
    removeApprovalRule: (agentId: string, ruleId: string, call?: CallOptions) =>
      http.call(
        apiRoutes.removeApprovalRule,
        { agentId, ruleId },
        { read: json(ApprovalRuleRemoved), resendable: true },
        call,
      ),
  };
}
