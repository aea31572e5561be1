import type { ServiceDatabase } from '../db/database';
import { prepare, type Executor } from '../db/statement';

export interface QuotaConfig {
  /** Turns a person may start in total, conversation and try turns alike (unset: unlimited). */
  turns?: number;
  /** Tokens (usage input + output) a person may spend in total (unset: unlimited). */
  tokens?: number;
}

/**
 * The account allowance (`config.turns.quota`): what a person has used, counted from the turns of
 * their conversations (migration 002) and their try turns (migration 004), and whether it refuses
 * one more turn (402 `quota_exhausted`).
 */
export interface Allowance {
  /** Why the person's allowance refuses a new turn, or null. */
  refusal(personId: string, on?: Executor): Promise<string | null>;
  /** Records a try turn that ran; the spec has it consume balance like any turn. */
  chargeTryTurn(charge: { personId: string; agentId: string; tokens: number; at: number }): Promise<void>;
  used(personId: string, on?: Executor): Promise<{ turns: number; tokens: number }>;
}

export function createAllowance(db: ServiceDatabase, quota: QuotaConfig | undefined): Allowance {
  const usedQuery = prepare(
    db,
    `SELECT
       (SELECT COUNT(*) FROM turns WHERE person_id = ?) + (SELECT COUNT(*) FROM try_turns WHERE person_id = ?) AS turns,
       (SELECT COALESCE(SUM(tokens), 0) FROM turns WHERE person_id = ?)
         + (SELECT COALESCE(SUM(tokens), 0) FROM try_turns WHERE person_id = ?) AS tokens`,
  );
  const insertTry = prepare(
    db,
    'INSERT INTO try_turns (person_id, agent_id, tokens, at) VALUES (?, ?, ?, ?)',
  );

  const used = async (personId: string, on: Executor = db) =>
    (await usedQuery.on(on).get(personId, personId, personId, personId)) as { turns: number; tokens: number };

  return {
    used,
    async refusal(personId, on) {
      if (!quota || (quota.turns === undefined && quota.tokens === undefined)) return null;
      const spent = await used(personId, on);
      if (quota.turns !== undefined && spent.turns >= quota.turns) {
        return `Has usado los ${quota.turns} turnos de tu asignación.`;
      }
      if (quota.tokens !== undefined && spent.tokens >= quota.tokens) {
        return `Has usado los ${quota.tokens} tokens de tu asignación.`;
      }
      return null;
    },
    async chargeTryTurn({ personId, agentId, tokens, at }) {
      await insertTry.run(personId, agentId, tokens, at);
    },
  };
}
