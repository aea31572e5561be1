/**
 * The approval-rules area (issue 39, item 2): an agent's standing answers to permission requests. Kept by
 * the server where it lists `listApprovalRules` among its extensions (every device shares them), else in
 * this computer's data folder. The app does the answering, through the spec's POST permission.
 */
import type { ApprovalRuleView } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

/** What a new rule says; `folder` null for any path. */
export type NewApprovalRule = Pick<ApprovalRuleView, 'effect' | 'tool' | 'folder'>;

export interface ApprovalRuleList {
  rules: ApprovalRuleView[];
  /** Where they are kept: `server` (every device of the person) or `computer` (this one only). */
  keptOn: 'server' | 'computer';
}

export interface ApprovalRuleMethods {
  listApprovalRules(agentId: string): Promise<DeskResult<ApprovalRuleList>>;
  /** The same rule made twice is kept once (the kept one comes back). */
  addApprovalRule(agentId: string, rule: NewApprovalRule): Promise<DeskResult<ApprovalRuleView>>;
  removeApprovalRule(agentId: string, ruleId: string): Promise<DeskResult<void>>;
}

export const approvalRulesArea = bridgeArea<ApprovalRuleMethods>()({
  calls: ['listApprovalRules', 'addApprovalRule', 'removeApprovalRule'],
});
