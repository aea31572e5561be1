import { create } from 'zustand';
import type { ApprovalRuleView } from '../../shared/api';
import type { ApprovalRuleList, NewApprovalRule } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';

/**
 * Each agent's approval rules as last read (issue 39, item 2), and which rule answered which permission
 * request in this window (keyed as the permissions store keys them), for the card's "Allowed by your rule".
 */
interface ApprovalRulesStore {
  byAgent: Record<string, ApprovalRuleList | undefined>;
  /** Why an agent's rules could not be read, in plain words. */
  failed: Record<string, string | undefined>;
  answeredBy: Record<string, ApprovalRuleView | undefined>;
  /** Requests whose rules are being read: the card waits before offering its answers. */
  checking: Record<string, boolean | undefined>;
  /** Reads the agent's rules afresh (another device may have changed them); undefined when that failed. */
  load(agentId: string): Promise<ApprovalRuleList | undefined>;
  /** The kept rule, or why it was not kept. */
  add(agentId: string, rule: NewApprovalRule): Promise<ApprovalRuleView | string>;
  remove(agentId: string, ruleId: string): Promise<string>;
  noteAnswered(key: string, rule: ApprovalRuleView): void;
  setChecking(keys: readonly string[], checking: boolean): void;
}

export const useApprovalRulesStore = create<ApprovalRulesStore>((set, get) => ({
  byAgent: {},
  failed: {},
  answeredBy: {},
  checking: {},
  async load(agentId) {
    const read = await desk().listApprovalRules(agentId);
    if (!read.ok) {
      set({ failed: { ...get().failed, [agentId]: errorWords(read.error) } });
      return undefined;
    }
    set({
      byAgent: { ...get().byAgent, [agentId]: read.value },
      failed: { ...get().failed, [agentId]: undefined },
    });
    return read.value;
  },
  async add(agentId, rule) {
    const made = await desk().addApprovalRule(agentId, rule);
    if (!made.ok) return errorWords(made.error);
    await get().load(agentId);
    return made.value;
  },
  async remove(agentId, ruleId) {
    const removed = await desk().removeApprovalRule(agentId, ruleId);
    // Already gone (another device removed it) is what was wanted.
    if (!removed.ok && removed.error.code !== 'not_found' && removed.error.status !== 404)
      return errorWords(removed.error);
    await get().load(agentId);
    return '';
  },
  noteAnswered(key, rule) {
    set({ answeredBy: { ...get().answeredBy, [key]: rule } });
  },
  setChecking(keys, checking) {
    const next = { ...get().checking };
    for (const key of keys) next[key] = checking || undefined;
    set({ checking: next });
  },
}));
