import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/**
 * Which service process runs each agent's machine: a lease row per agent (holder, expiry), taken by the
 * process that first needs the machine and renewed by its heartbeat. A process that dies stops renewing;
 * once its leases expire another process may take them, and the first heartbeat to see turns left
 * open under no live lease ends them (`orphans`), so no client waits for a turn nobody runs; a process
 * taking an agent over ends them too, before its first turn.
 * A holder that stays alive but cannot renew in time (its database stalls) may have lost its leases: it
 * stops acting for those agents at once (`onLost`), and again for any its next heartbeat finds taken.
 */

export type Claim = { mine: true } | { mine: false; url: string | null };

export interface LeaseOptions {
  /** How long a lease outlives its holder's last heartbeat; the heartbeat runs three times per period. */
  leaseMs: number;
  log: (line: string) => void;
  /** Turns left queued or running under no live lease, now marked `error` in the store: close their streams. */
  orphans: (turns: { conversation_id: string; turn_id: string }[]) => void;
}

export class AgentLeases {
  readonly processId = randomUUID();
  /** Agents this process holds, each with when its lease surely still runs (a local clock reading). */
  private readonly held = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  /** Set by leave(): no lease is taken after it, and the claims already sent are awaited before it hands back. */
  private leaving = false;
  private readonly claiming = new Set<Promise<unknown>>();
  /** When the last heartbeat that renewed our leases was sent (a local clock reading). */
  private renewedAt = 0;
  private readonly lostListeners = new Set<(agentId: string) => void>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: LeaseOptions,
  ) {}

  /** Registers this process (where the others forward to it) and starts the heartbeat. */
  async join(url: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO cluster_processes (id, url, seen_until) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, seen_until = EXCLUDED.seen_until`,
      [this.processId, url, this.options.leaseMs],
    );
    this.renewedAt = Date.now();
    this.timer = setInterval(
      () => {
        // Not renewed for a whole lease: another process may run our agents by now.
        if (Date.now() - this.renewedAt > this.options.leaseMs)
          for (const agentId of this.agents) this.lose(agentId);
        this.ticking ??= this.tick().finally(() => (this.ticking = null));
      },
      Math.max(100, Math.floor(this.options.leaseMs / 3)),
    );
    this.timer.unref();
    await this.tick();
  }

  /** Takes the agent's lease when it is free, expired or already ours; else says who holds it. */
  async claim(agentId: string): Promise<Claim> {
    // Renewed not long ago: no one else can hold it yet, so no round trip on the busy path.
    if ((this.held.get(agentId) ?? 0) > Date.now()) return { mine: true };
    if (this.leaving) return { mine: false, url: null };
    const asked = Date.now();
    const taking = this.pool.query(
      `INSERT INTO cluster_leases (agent_id, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (agent_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE cluster_leases.holder = EXCLUDED.holder OR cluster_leases.expires_at < now()
       RETURNING holder`,
      [agentId, this.processId, this.options.leaseMs],
    );
    this.claiming.add(taking);
    const taken = await taking.finally(() => this.claiming.delete(taking));
    if (taken.rowCount === 1) {
      if (!this.held.has(agentId)) {
        this.options.log(`cluster: this process now runs agent ${agentId}`);
        await this.endLeftTurns(agentId);
      }
      this.held.set(agentId, this.safeUntil(asked));
      return { mine: true };
    }
    const { rows } = await this.pool.query<{ url: string | null }>(
      `SELECT p.url FROM cluster_leases l
       LEFT JOIN cluster_processes p ON p.id = l.holder AND p.seen_until > now()
       WHERE l.agent_id = $1`,
      [agentId],
    );
    return { mine: false, url: rows[0]?.url ?? null };
  }

  /** Called with each agent this process finds it no longer holds (it must stop acting for it). */
  onLost(listener: (agentId: string) => void): void {
    this.lostListeners.add(listener);
  }

  /**
   * Stops acting for the agent, and hands its lease back if it is still ours (the watchdog's case): the
   * sweep then ends the turns left open, which this process drops without a word.
   */
  private lose(agentId: string): void {
    if (!this.held.delete(agentId)) return;
    this.options.log(`cluster: lost the lease of agent ${agentId}`);
    for (const listener of this.lostListeners) listener(agentId);
    this.pool
      .query('DELETE FROM cluster_leases WHERE agent_id = $1 AND holder = $2', [agentId, this.processId])
      .catch((error: unknown) =>
        this.options.log(`cluster: lease not handed back (${(error as Error).message})`),
      );
  }

  /**
   * Taking an agent over: the turns its previous holder left open end as errors (the sweep in `tick` would
   * miss them, as the agent's lease is live again). Conditional, so they end once whoever sees them first.
   */
  private async endLeftTurns(agentId: string): Promise<void> {
    const left = await this.pool.query<{ conversation_id: string; turn_id: string }>(
      `UPDATE turns t SET state = 'error', at = $1 FROM conversations c
       WHERE c.id = t.conversation_id AND c.agent_id = $2 AND t.state IN ('queued', 'running')
       RETURNING t.conversation_id, t.turn_id`,
      [Date.now(), agentId],
    );
    if (left.rows.length > 0) this.options.orphans(left.rows);
  }

  /** Agents whose machine this process runs. */
  get agents(): string[] {
    return [...this.held.keys()];
  }

  /** A lease written at `asked` (or later) runs at least until this, by our clock, with a margin for drift. */
  private safeUntil(asked: number): number {
    return asked + Math.floor(this.options.leaseMs / 2);
  }

  private async tick(): Promise<void> {
    try {
      const { leaseMs } = this.options;
      const asked = Date.now();
      await this.pool.query(
        `UPDATE cluster_processes SET seen_until = now() + $2 * interval '1 millisecond' WHERE id = $1`,
        [this.processId, leaseMs],
      );
      const renewed = await this.pool.query<{ agent_id: string }>(
        `UPDATE cluster_leases SET expires_at = now() + $2 * interval '1 millisecond' WHERE holder = $1 RETURNING agent_id`,
        [this.processId, leaseMs],
      );
      this.renewedAt = asked;
      const still = new Set(renewed.rows.map((r) => r.agent_id));
      for (const agentId of still) if (this.held.has(agentId)) this.held.set(agentId, this.safeUntil(asked));
      // Our heartbeat came too late and another process took the agent over.
      for (const agentId of this.agents.filter((a) => !still.has(a))) this.lose(agentId);
      const orphans = await this.pool.query<{ conversation_id: string; turn_id: string }>(
        `UPDATE turns t SET state = 'error', at = $1
         FROM conversations c
         WHERE c.id = t.conversation_id AND t.state IN ('queued', 'running')
           AND NOT EXISTS (SELECT 1 FROM cluster_leases l WHERE l.agent_id = c.agent_id AND l.expires_at > now())
         RETURNING t.conversation_id, t.turn_id`,
        [Date.now()],
      );
      if (orphans.rows.length > 0) this.options.orphans(orphans.rows);
      await this.pool.query("DELETE FROM cluster_processes WHERE seen_until < now() - interval '1 hour'");
    } catch (error) {
      this.options.log(`cluster: heartbeat failed (${(error as Error).message})`);
    }
  }

  /** Stops the heartbeat and hands every lease back, so another process takes the agents at once. */
  async leave(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.leaving = true;
    // A claim sent just before (a schedule's look, a message) would otherwise write a lease after the
    // delete below, and the next process would wait out its expiry.
    await Promise.allSettled([...this.claiming]);
    await this.ticking;
    await this.pool.query('DELETE FROM cluster_leases WHERE holder = $1', [this.processId]);
    await this.pool.query('DELETE FROM cluster_processes WHERE id = $1', [this.processId]);
    this.held.clear();
  }
}
