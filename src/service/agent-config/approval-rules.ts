import { randomUUID } from 'node:crypto';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { refuse, success, type Outcome } from '../outcome';

/** An agent's standing answer to a permission request (our extension, migration 008). */
export interface StoredRule {
  id: string;
  effect: 'allow' | 'deny';
  /** What asks: the tool call's kind (`edit`, `execute`...), else the request's tool. */
  tool: string;
  /** Only requests whose path is this folder or under it; null for any path. */
  folder: string | null;
  madeAt: number;
}

export type RuleAdded = Outcome<{ rule: StoredRule; created: boolean }, 'too_many'>;

/** Rules per agent: enough for any person, few enough that matching them is free. */
export const MAX_RULES = 200;

interface RuleRow {
  id: string;
  effect: 'allow' | 'deny';
  tool: string;
  folder: string | null;
  made_at: number;
}

const toRule = (row: RuleRow): StoredRule => ({
  id: row.id,
  effect: row.effect,
  tool: row.tool,
  folder: row.folder,
  madeAt: row.made_at,
});

/**
 * Approval rules, kept per agent so every device of the person shares them. The service only keeps them:
 * the client matches a request against them and answers it through the spec's POST permission.
 */
export function createApprovalRules(db: ServiceDatabase) {
  const q = {
    list: prepare(db, 'SELECT * FROM approval_rules WHERE agent_id = ? ORDER BY made_at, id'),
    same: prepare(
      db,
      `SELECT * FROM approval_rules WHERE agent_id = ? AND effect = ? AND tool = ?
       AND (folder = ? OR (folder IS NULL AND CAST(? AS TEXT) IS NULL))`,
    ),
    count: prepare(db, 'SELECT COUNT(*) AS n FROM approval_rules WHERE agent_id = ?'),
    insert: prepare(
      db,
      'INSERT INTO approval_rules (id, agent_id, effect, tool, folder, made_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    remove: prepare(db, 'DELETE FROM approval_rules WHERE agent_id = ? AND id = ?'),
  };

  return {
    async list(agentId: string): Promise<StoredRule[]> {
      return ((await q.list.all(agentId)) as RuleRow[]).map(toRule);
    },

    /** Adds a rule; the same rule again is the one already kept. */
    async add(agentId: string, rule: Omit<StoredRule, 'id' | 'madeAt'>, now: number): Promise<RuleAdded> {
      const existing = (await q.same.get(agentId, rule.effect, rule.tool, rule.folder, rule.folder)) as
        RuleRow | undefined;
      if (existing) return success({ rule: toRule(existing), created: false });
      if (((await q.count.get(agentId)) as { n: number }).n >= MAX_RULES)
        return refuse('too_many', `This agent has ${MAX_RULES} rules already; remove one first.`);
      const made: StoredRule = { id: randomUUID(), ...rule, madeAt: now };
      await q.insert.run(made.id, agentId, made.effect, made.tool, made.folder, now);
      return success({ rule: made, created: true });
    },

    /** False when the agent has no rule of that id. */
    async remove(agentId: string, id: string): Promise<boolean> {
      return (await q.remove.run(agentId, id)).changes > 0;
    },
  };
}

export type ApprovalRuleStore = ReturnType<typeof createApprovalRules>;
