import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { lockRow, prepare, type Executor } from '../db/statement';
import type { TokenCache } from './token-cache';

/** The identity part of an agent; other areas keep their own columns/tables keyed by `id`. */
export interface AgentRecord {
  id: string;
  personId: string;
  name: string;
  engine: string;
  origin: 'gs' | 'partner';
  protocol: 'acp' | 'sse' | 'http';
  createdAt: number;
  /** A live (unrevoked) `gat_` token exists for this agent. */
  hasLiveToken: boolean;
}

/**
 * What an empty account is given before its first agent list is answered: a machine agent on `engine-b` (the
 * demo agent), or on the model agent when a provider is found for the person (see `listEnrolling`).
 */
export const FIRST_AGENT = { name: 'Assistant', engine: 'engine-b', protocol: 'acp' } as const;

/** The first agent's name in the languages we know; the spec names none (our choice). */
const FIRST_AGENT_NAMES: Record<string, string> = {
  en: 'Assistant',
  es: 'Asistente',
  fr: 'Assistant',
  de: 'Assistent',
  it: 'Assistente',
  pt: 'Assistente',
};

/** The first agent's plain name in the first language of an `Accept-Language` we know; English otherwise. */
export function firstAgentName(acceptLanguage: string | undefined): string {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', q = 'q=1'] = part.trim().split(';');
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: Number(q.split('=')[1] ?? 1) };
    })
    .filter((entry) => entry.language && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { language } of ranked) {
    const name = FIRST_AGENT_NAMES[language];
    if (name) return name;
  }
  return FIRST_AGENT.name;
}

interface AgentRow {
  id: string;
  person_id: string;
  name: string;
  engine: string;
  origin: AgentRecord['origin'];
  protocol: AgentRecord['protocol'];
  created_at: number;
  has_live_token: number;
}

function toRecord(row: AgentRow): AgentRecord {
  return {
    id: row.id,
    personId: row.person_id,
    name: row.name,
    engine: row.engine,
    origin: row.origin,
    protocol: row.protocol,
    createdAt: row.created_at,
    hasLiveToken: row.has_live_token === 1,
  };
}

export type AgentCreatedListener = (agent: AgentRecord) => void;

/** Agents whose person is kept in memory: a cap for a server of many people, not a working size. */
const KEPT_OWNERS = 10_000;

export function createAgentStore(db: ServiceDatabase, clock: Clock, cache: TokenCache) {
  // One query answers both the agent and whether it has a live token (GET /me/agents is the hot path).
  const columns = `a.*, CASE WHEN EXISTS (SELECT 1 FROM agent_tokens t WHERE t.agent_id = a.id AND t.revoked_at IS NULL)
    THEN 1 ELSE 0 END AS has_live_token`;
  const listStmt = prepare(
    db,
    `SELECT ${columns} FROM agents a WHERE a.person_id = ? ORDER BY a.created_at, a.rowid`,
  );
  const byId = prepare(db, `SELECT ${columns} FROM agents a WHERE a.id = ?`);
  const insert = prepare(
    db,
    'INSERT INTO agents (id, person_id, name, engine, origin, protocol, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const listeners = new Set<AgentCreatedListener>();
  // An agent never changes hands and its id is never reused, so its person is read once: a turn's start
  // asks for it, and would otherwise wait for the admission's transaction to free the connection.
  const owners = new Map<string, string>();

  async function insertAgent(
    personId: string,
    input: { name: string; engine: string; protocol: AgentRecord['protocol'] },
    on: Executor,
  ): Promise<AgentRecord> {
    const agent: AgentRecord = {
      id: randomUUID(),
      personId,
      name: input.name,
      engine: input.engine,
      origin: 'gs',
      protocol: input.protocol,
      createdAt: clock.now(),
      hasLiveToken: false,
    };
    await insert
      .on(on)
      .run(agent.id, personId, agent.name, agent.engine, agent.origin, agent.protocol, agent.createdAt);
    return agent;
  }

  async function find(agentId: string): Promise<AgentRecord | null> {
    const row = (await byId.get(agentId)) as AgentRow | undefined;
    return row ? toRecord(row) : null;
  }

  function created(agent: AgentRecord): AgentRecord {
    for (const listener of listeners) listener(agent);
    return agent;
  }

  async function create(
    personId: string,
    input: { name: string; engine: string; protocol: AgentRecord['protocol'] },
  ): Promise<AgentRecord> {
    return created(await insertAgent(personId, input, db));
  }

  async function enrolIfEmpty(personId: string, name: string, engine: string): Promise<AgentRecord[]> {
    const made = await db.transaction().execute(async (trx) => {
      // Two first requests at once enrol one agent: the second waits here, then finds it.
      await lockRow(trx, 'persons', personId);
      const rows = (await listStmt.on(trx).all(personId)) as AgentRow[];
      if (rows.length > 0) return rows.map(toRecord);
      return insertAgent(personId, { ...FIRST_AGENT, name, engine }, trx);
    });
    return Array.isArray(made) ? made : [created(made)];
  }
  const remove = prepare(db, 'DELETE FROM agents WHERE id = ? AND person_id = ?');

  return {
    create,
    async list(personId: string): Promise<AgentRecord[]> {
      return ((await listStmt.all(personId)) as AgentRow[]).map(toRecord);
    },
    /**
     * The person's agents, enrolling the first one when there are none (GET /api/v2/me/agents, account page),
     * named in the caller's language (`firstAgentName`), on the engine `firstEngine` chooses (asked only then).
     */
    async listEnrolling(
      personId: string,
      firstName: string = FIRST_AGENT.name,
      firstEngine?: () => Promise<string>,
    ): Promise<AgentRecord[]> {
      // Most calls find agents: read without a transaction, and take one only to enrol.
      const rows = (await listStmt.all(personId)) as AgentRow[];
      if (rows.length > 0) return rows.map(toRecord);
      return enrolIfEmpty(personId, firstName, firstEngine ? await firstEngine() : FIRST_AGENT.engine);
    },
    /**
     * Deletes the agent's row; its conversations, settings and tokens go with it (ON DELETE CASCADE). Decided
     * under the person's row lock, so two deletes at once (of this agent, or of the account's last two) cannot
     * both succeed: `gone` when it is not there (any more), `last` when it is the account's only agent.
     */
    async remove(personId: string, agentId: string): Promise<'removed' | 'gone' | 'last'> {
      const outcome = await db.transaction().execute(async (trx) => {
        await lockRow(trx, 'persons', personId);
        const rows = (await listStmt.on(trx).all(personId)) as AgentRow[];
        if (!rows.some((row) => row.id === agentId)) return 'gone';
        if (rows.length <= 1) return 'last';
        await remove.on(trx).run(agentId, personId);
        return 'removed' as const;
      });
      // Its `gat_` tokens went with it.
      if (outcome === 'removed') {
        cache.forgetAll();
        owners.delete(agentId);
      }
      return outcome;
    },
    find,
    /** The agent's person; null when there is no such agent (a miss is not kept: it may be created a moment later). */
    async ownerOf(agentId: string): Promise<string | null> {
      const kept = owners.get(agentId);
      if (kept) return kept;
      const personId = (await find(agentId))?.personId ?? null;
      if (personId) {
        if (owners.size >= KEPT_OWNERS) owners.delete(owners.keys().next().value as string);
        owners.set(agentId, personId);
      }
      return personId;
    },
    /** The agent when it belongs to `personId`; null otherwise (callers answer 404, never 403). */
    async findOwned(personId: string, agentId: string): Promise<AgentRecord | null> {
      const row = (await byId.get(agentId)) as AgentRow | undefined;
      return row && row.person_id === personId ? toRecord(row) : null;
    },
    /** Other areas seed their per-agent state here (default config, workspace folder...). */
    onCreated(listener: AgentCreatedListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type AgentStore = ReturnType<typeof createAgentStore>;
