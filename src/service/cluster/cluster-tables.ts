import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * The tables only several service processes on one PostgreSQL need (never on the libsql file):
 * - cluster_processes: each live process and where the others reach it, renewed by its heartbeat;
 * - cluster_leases: which process runs each agent's machine, until when;
 * - cluster_events: every conversation's stream events in order, so a stream served by any process
 *   replays and follows a turn run by another (LISTEN/NOTIFY wakes the readers); pruned by event-feed.ts;
 * - cluster_secret: proves a forwarded request came from a process of this cluster.
 * Created idempotently under a lock, so processes starting at once agree.
 */
const TABLES_LOCK = 270_027;

export async function ensureClusterTables(pool: pg.Pool): Promise<{ secret: string }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [TABLES_LOCK]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS cluster_processes (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        seen_until TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE IF NOT EXISTS cluster_leases (
        agent_id TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE IF NOT EXISTS cluster_events (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        event TEXT NOT NULL,
        data JSONB NOT NULL
      );
      CREATE INDEX IF NOT EXISTS cluster_events_conversation ON cluster_events (conversation_id, seq);
      -- What a process's streams have read (pruning waits for it) and when an event was written (or not).
      ALTER TABLE cluster_processes ADD COLUMN IF NOT EXISTS read_seq BIGINT;
      ALTER TABLE cluster_events ADD COLUMN IF NOT EXISTS written_at TIMESTAMPTZ NOT NULL DEFAULT now();
      CREATE TABLE IF NOT EXISTS cluster_secret (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), secret TEXT NOT NULL);
    `);
    await client.query('INSERT INTO cluster_secret (secret) VALUES ($1) ON CONFLICT DO NOTHING', [
      randomBytes(32).toString('base64url'),
    ]);
    const { rows } = await client.query<{ secret: string }>('SELECT secret FROM cluster_secret');
    await client.query('COMMIT');
    return { secret: rows[0]!.secret };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
