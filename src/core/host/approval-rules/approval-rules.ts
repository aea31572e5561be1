import { join } from 'node:path';
import { z } from 'zod';
import type { ApprovalRuleMethods, DeskResult } from '../../../shared/bridge';
import { agentCheck, checkBody, checkId } from '../plumbing/argument-checks';
import { fail, noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';
import { localRulesStore, MAX_RULES_PER_AGENT } from './rules-file';

const NewRule = z.strictObject({
  effect: z.enum(['allow', 'deny']),
  tool: z.string().trim().min(1).max(200),
  folder: z.string().trim().min(1).max(1024).nullable(),
});

/**
 * The approval-rules area: an agent's rules through our service's extension where the server lists it
 * (shared by every device), else in `approval-rules.json` in this computer's data folder, by server address.
 */
export function createApprovalRulesArea(deps: {
  withApi: WithApi;
  /** Which of our extensions the server offers (plumbing/server-extensions.ts, shared by the areas). */
  serverExtensions(): Promise<DeskResult<string[]>>;
  dataDir: string;
}): ApprovalRuleMethods {
  const { withApi } = deps;
  const local = localRulesStore(join(deps.dataDir, 'approval-rules.json'));
  /** The server's address when its rules are kept here; undefined when the server keeps them. */
  const keptHere = async () => {
    const offered = await deps.serverExtensions();
    if (!offered.ok) return offered;
    if (offered.value.includes('listApprovalRules')) return { ok: true as const, value: undefined };
    return withApi(async (api) => ({ ok: true, value: api.baseUrl }));
  };

  return {
    async listApprovalRules(agentId) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const here = await keptHere();
      if (!here.ok) return here;
      if (here.value === undefined) {
        const read = await withApi((api) => api.listApprovalRules(agentId));
        return read.ok ? { ok: true, value: { rules: read.value, keptOn: 'server' } } : read;
      }
      return { ok: true, value: { rules: await local.list(here.value, agentId), keptOn: 'computer' } };
    },

    async addApprovalRule(agentId, rule) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const body = checkBody(NewRule, rule);
      if (!body.ok) return body;
      const here = await keptHere();
      if (!here.ok) return here;
      if (here.value === undefined) return withApi((api) => api.addApprovalRule(agentId, body.value));
      const made = await local.add(here.value, agentId, body.value);
      return made
        ? { ok: true, value: made }
        : fail('too_many_rules', `An agent keeps at most ${MAX_RULES_PER_AGENT} rules; remove one first.`);
    },

    async removeApprovalRule(agentId, ruleId) {
      const invalid = agentCheck(agentId);
      if (invalid) return invalid;
      const noRule = checkId(ruleId, 'rule');
      if (noRule) return { ok: false, error: noRule };
      const here = await keptHere();
      if (!here.ok) return here;
      if (here.value === undefined) return withApi((api) => noBody(api.removeApprovalRule(agentId, ruleId)));
      return (await local.remove(here.value, agentId, ruleId))
        ? { ok: true, value: undefined }
        : fail('not_found', 'That rule is already gone.');
    },
  };
}
