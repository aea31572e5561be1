import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writePrivateJson } from '../../common/private-json-file';
import type { ApprovalRuleView } from '../../../shared/api';
import type { NewApprovalRule } from '../../../shared/bridge';

/** As many rules per agent as our service keeps (its 409 `demasiadas_reglas`). */
export const MAX_RULES_PER_AGENT = 200;

const Rule = z.object({
  id: z.string().min(1),
  effect: z.enum(['allow', 'deny']),
  tool: z.string().min(1),
  folder: z.string().min(1).nullable(),
  madeAt: z.number(),
});
/** `approval-rules.json`: by server address, then agent. A broken file or rule is left out, not fatal. */
const RulesFile = z.record(z.string(), z.record(z.string(), z.array(Rule).catch([])).catch({})).catch({});
type RulesFile = z.infer<typeof RulesFile>;

/**
 * The rules of servers without our approval-rules extension, kept on this computer only (issue 39, item 2).
 * Changes are written one after another, each as a whole new file renamed over the old, readable by this
 * user only.
 */
export function localRulesStore(filePath: string) {
  let cached: Promise<RulesFile> | undefined;
  let saving: Promise<void> = Promise.resolve();
  const read = (): Promise<RulesFile> =>
    (cached ??= readFile(filePath, 'utf8')
      .then((text): RulesFile => RulesFile.parse(JSON.parse(text)))
      .catch((): RulesFile => ({})));
  const write = (all: RulesFile) => {
    cached = Promise.resolve(all);
    saving = saving.then(() => writePrivateJson(filePath, all));
    return saving;
  };

  return {
    async list(server: string, agentId: string): Promise<ApprovalRuleView[]> {
      return (await read())[server]?.[agentId] ?? [];
    },
    /** The kept rule (the same one made again is not doubled); undefined past the limit. */
    async add(server: string, agentId: string, rule: NewApprovalRule): Promise<ApprovalRuleView | undefined> {
      const all = await read();
      const rules = all[server]?.[agentId] ?? [];
      const same = rules.find(
        (r) => r.effect === rule.effect && r.tool === rule.tool && r.folder === rule.folder,
      );
      if (same) return same;
      if (rules.length >= MAX_RULES_PER_AGENT) return undefined;
      const made: ApprovalRuleView = { id: randomUUID(), ...rule, madeAt: Date.now() };
      await write({ ...all, [server]: { ...all[server], [agentId]: [...rules, made] } });
      return made;
    },
    /** False when there was no such rule. */
    async remove(server: string, agentId: string, ruleId: string): Promise<boolean> {
      const all = await read();
      const rules = all[server]?.[agentId] ?? [];
      if (!rules.some((r) => r.id === ruleId)) return false;
      await write({ ...all, [server]: { ...all[server], [agentId]: rules.filter((r) => r.id !== ruleId) } });
      return true;
    },
  };
}
