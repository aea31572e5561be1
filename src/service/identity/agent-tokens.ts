import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { randomSecret, sha256Hex } from '../security/token-hash';
import type { TokenCache } from './token-cache';

export const AGENT_TOKEN_PREFIX = 'gat_';

export interface AgentTokenInfo {
  id: string;
  agentId: string;
  /** `gat_…` plus the last 4 characters, so a person can tell tokens apart. */
  hint: string;
  createdAt: number;
}

export interface AgentTokenGrant {
  agentId: string;
  personId: string;
}

export function createAgentTokenStore(db: ServiceDatabase, clock: Clock, cache: TokenCache) {
  const insert = prepare(
    db,
    'INSERT INTO agent_tokens (id, token_hash, agent_id, hint, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const listStmt = prepare(
    db,
    'SELECT id, agent_id, hint, created_at FROM agent_tokens WHERE agent_id = ? AND revoked_at IS NULL ORDER BY created_at',
  );
  const resolveStmt = prepare(
    db,
    `SELECT t.agent_id, a.person_id FROM agent_tokens t JOIN agents a ON a.id = t.agent_id
     WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
  );
  const revokeStmt = prepare(
    db,
    `UPDATE agent_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL
       AND agent_id IN (SELECT id FROM agents WHERE person_id = ?)`,
  );
  const countLive = prepare(
    db,
    'SELECT COUNT(*) AS n FROM agent_tokens WHERE agent_id = ? AND revoked_at IS NULL',
  );

  return {
    /** Creates a token; the plain value is returned once and never stored. */
    async create(agentId: string): Promise<{ token: string; info: AgentTokenInfo }> {
      const token = randomSecret(AGENT_TOKEN_PREFIX);
      const info = {
        id: randomUUID(),
        agentId,
        hint: `${AGENT_TOKEN_PREFIX}…${token.slice(-4)}`,
        createdAt: clock.now(),
      };
      await insert.run(info.id, sha256Hex(token), agentId, info.hint, info.createdAt);
      return { token, info };
    },
    async list(agentId: string): Promise<AgentTokenInfo[]> {
      return (
        (await listStmt.all(agentId)) as { id: string; agent_id: string; hint: string; created_at: number }[]
      ).map((row) => ({ id: row.id, agentId: row.agent_id, hint: row.hint, createdAt: row.created_at }));
    },
    async hasLiveToken(agentId: string): Promise<boolean> {
      return ((await countLive.get(agentId)) as { n: number }).n > 0;
    },
    /** Revokes a token of one of `personId`'s agents; false when there is no such live token. */
    async revoke(personId: string, tokenId: string): Promise<boolean> {
      const revoked = (await revokeStmt.run(clock.now(), tokenId, personId)).changes === 1;
      if (revoked) cache.forgetAll();
      return revoked;
    },
    async resolve(token: string): Promise<AgentTokenGrant | null> {
      if (!token.startsWith(AGENT_TOKEN_PREFIX)) return null;
      const hash = sha256Hex(token);
      const known = cache.get<AgentTokenGrant>(hash);
      if (known) return known;
      const readAt = cache.generation();
      const row = (await resolveStmt.get(hash)) as { agent_id: string; person_id: string } | undefined;
      if (!row) return null;
      const grant = { agentId: row.agent_id, personId: row.person_id };
      // An agent token does not expire: it lives until revoked, so only the bound ends what is kept.
      cache.set(hash, grant, Infinity, readAt);
      return grant;
    },
  };
}

export type AgentTokenStore = ReturnType<typeof createAgentTokenStore>;
