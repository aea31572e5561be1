import type { MiddlewareHandler } from 'hono';
import pg from 'pg';
import type { ServiceConfig } from '../config';
import { isPostgresUrl, postgresConnectTimeoutMs } from '../db/database';
import type { AppEnv } from '../http/app-env';
import { ConversationEventLog } from '../turns/event-log';
import { SERVICE_RESTARTED_MESSAGE } from '../turns/restart-recovery';
import { AgentLeases } from './agent-leases';
import { ensureClusterTables } from './cluster-tables';
import { EventFeed } from './event-feed';
import { pruneEvents } from './event-pruning';
import { forwardToHolder } from './forward';

/** Default lease: a dead process's agents move to another process within this time. */
export const DEFAULT_LEASE_MS = 15_000;
/** How often each process prunes `cluster_events`, and when an unread row outside the replay window goes. */
const PRUNE_EVERY_MS = 60_000;
const EVENTS_STALE_MS = 10 * 60_000;

/**
 * Several service processes on one PostgreSQL (docs/architecture.md, "Limits"): the conversation events
 * every process streams (event-feed.ts), the lease that keeps each agent's machine in one process
 * (agent-leases.ts), and the forwarding of requests that need a machine to its process (forward.ts).
 * Only with a postgres:// store; the libsql file keeps one process and the in-memory fan-out.
 */
export interface Cluster {
  readonly processId: string;
  readonly feed: EventFeed;
  readonly leases: AgentLeases;
  /** Goes after the /api/v2 guard: the caller is known and owns the agent. */
  readonly forward: MiddlewareHandler<AppEnv>;
  /** Once listening: registers where the other processes reach this one, starts the heartbeat. */
  join(localUrl: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The cluster of this service when its store is PostgreSQL (`database` in the config, or DATABASE_URL):
 * `cluster.leaseMs` in the config shortens the lease (tests). Undefined on the libsql file.
 */
export async function clusterFor(
  config: ServiceConfig,
  log: (line: string) => void,
): Promise<Cluster | undefined> {
  const databaseUrl =
    typeof config['database'] === 'string' ? config['database'] : process.env['DATABASE_URL'];
  if (!isPostgresUrl(databaseUrl)) return undefined;
  const settings = (config['cluster'] ?? {}) as { leaseMs?: number; pruneMs?: number };
  return startCluster({ databaseUrl, leaseMs: settings.leaseMs, pruneMs: settings.pruneMs, log });
}

export async function startCluster(options: {
  databaseUrl: string;
  leaseMs?: number;
  pruneMs?: number;
  log: (line: string) => void;
}): Promise<Cluster> {
  const { databaseUrl, log } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 5,
    connectionTimeoutMillis: postgresConnectTimeoutMs,
  });
  pool.on('error', (error) => log(`cluster: ${error.message}`));
  try {
    const { secret } = await ensureClusterTables(pool);
    const feed = new EventFeed(pool, databaseUrl, log);
    await feed.start();
    const leases = new AgentLeases(pool, {
      leaseMs,
      log,
      orphans: (turns) => {
        // Their process died with their agent sessions: they end as errors, as after a restart.
        for (const turn of turns) {
          new ConversationEventLog(feed.mirror(turn.conversation_id)).closeLeftover(
            turn.turn_id,
            SERVICE_RESTARTED_MESSAGE,
            'error',
          );
        }
      },
    });
    let pruning: Promise<unknown> = Promise.resolve();
    const prune = setInterval(() => {
      const mark = { processId: leases.processId, readMark: feed.readMark(), staleMs: EVENTS_STALE_MS };
      pruning = pruneEvents(pool, mark).catch((error: unknown) =>
        log(`cluster: events not pruned (${(error as Error).message})`),
      );
    }, options.pruneMs ?? PRUNE_EVERY_MS);
    prune.unref();
    return {
      processId: leases.processId,
      feed,
      leases,
      forward: forwardToHolder({
        claim: (agentId) => leases.claim(agentId),
        secret,
        retryAfterSeconds: Math.ceil(leaseMs / 1000),
      }),
      join: (localUrl) => leases.join(localUrl),
      async close() {
        clearInterval(prune);
        await pruning;
        await leases.leave().catch((error: unknown) => log(`cluster: ${(error as Error).message}`));
        await feed.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
