import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AgentLeases } from '../../../src/service/cluster/agent-leases';
import { ensureClusterTables } from '../../../src/service/cluster/cluster-tables';
import { EventFeed } from '../../../src/service/cluster/event-feed';
import { ConversationEventLog, type LoggedEvent } from '../../../src/service/turns/event-log';
import { freshDatabase } from '../../support/postgres';

/** One "process": its own pool and feed on the shared database. */
async function processOn(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  await ensureClusterTables(pool);
  const feed = new EventFeed(pool, url, () => {});
  await feed.start();
  onTestFinished(async () => {
    await feed.close();
    await pool.end().catch(() => undefined);
  });
  return { pool, feed };
}

function collector() {
  const got: LoggedEvent[] = [];
  const waiters: (() => void)[] = [];
  return {
    got,
    listener: (event: LoggedEvent) => {
      got.push(event);
      for (const w of waiters.splice(0)) w();
    },
    async until(count: number): Promise<LoggedEvent[]> {
      while (got.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return got;
    },
  };
}

describe('cluster event feed (PostgreSQL, two processes)', () => {
  it('streams a turn logged by one process to a reader on another, with the same ids, and replays after Last-Event-ID', async () => {
    const url = await freshDatabase();
    const a = await processOn(url);
    const b = await processOn(url);
    const runner = new ConversationEventLog(a.feed.mirror('conv-1'));
    const reader = collector();
    const sub = await b.feed.subscribe('conv-1', reader.listener, null);
    expect(sub.replayed.map((e) => e.id)).toEqual(['reposo.0']);

    runner.beginTurn('t1');
    runner.append('started', { turnId: 't1' });
    runner.append('chunk', { text: 'hel', turnId: 't1' });
    runner.append('chunk', { text: 'lo', turnId: 't1' });
    const live = await reader.until(3);
    expect(live.map((e) => e.id)).toEqual(['t1.1', 't1.2', 't1.3']);
    expect(live[2]!.data).toEqual({ text: 'lo', turnId: 't1' });

    runner.endTurn(true, { estado: 'done' });
    await reader.until(5);
    expect(reader.got.map((e) => `${e.id} ${e.event}`)).toEqual([
      't1.1 started',
      't1.2 chunk',
      't1.3 chunk',
      't1.4 done',
      't1.5 done',
    ]);
    sub.close();
    await a.feed.flushed();

    // A reader that dropped after t1.2 resumes on either process with what came after it.
    for (const feed of [a.feed, b.feed]) {
      const resumed = await feed.subscribe('conv-1', () => {}, 't1.2');
      expect(resumed.replayed.map((e) => e.id)).toEqual(['t1.3', 't1.4', 't1.5']);
      resumed.close();
    }
    // An open turn replays from its start to a new reader.
    runner.beginTurn('t2');
    runner.append('started', { turnId: 't2' });
    await a.feed.flushed();
    const fresh = await b.feed.subscribe('conv-1', () => {}, null);
    expect(fresh.replayed.map((e) => e.id)).toEqual(['t2.1']);
    fresh.close();
  });

  it('carries text jsonb refuses (NUL, a lone surrogate) and keeps streaming after it', async () => {
    const url = await freshDatabase();
    const a = await processOn(url);
    const b = await processOn(url);
    const runner = new ConversationEventLog(a.feed.mirror('conv-1'));
    const reader = collector();
    const sub = await b.feed.subscribe('conv-1', reader.listener, null);
    runner.beginTurn('t1');
    runner.append('chunk', { text: 'a\u0000b\ud800c', turnId: 't1' });
    runner.append('chunk', { text: 'after', turnId: 't1' });
    const live = await reader.until(2);
    expect(live.map((e) => e.data['text'])).toEqual(['a\u0000b\ud800c', 'after']);
    sub.close();
    await a.feed.flushed();
    const resumed = await b.feed.subscribe('conv-1', () => {}, null);
    expect(resumed.replayed.map((e) => e.data['text'])).toEqual(['a\u0000b\ud800c', 'after']);
    resumed.close();
  });

  it("moves a dead process's agent to another process and ends the turn it left open", async () => {
    const url = await freshDatabase();
    const a = await processOn(url);
    const b = await processOn(url);
    await a.pool.query('CREATE TABLE conversations (id TEXT PRIMARY KEY, agent_id TEXT NOT NULL)');
    await a.pool.query('CREATE TABLE turns (conversation_id TEXT, turn_id TEXT, state TEXT, at BIGINT)');
    await a.pool.query("INSERT INTO conversations VALUES ('conv-1', 'agent-1')");

    const orphaned: string[] = [];
    const leasesA = new AgentLeases(a.pool, { leaseMs: 1500, log: () => {}, orphans: () => {} });
    const leasesB = new AgentLeases(b.pool, {
      leaseMs: 1500,
      log: () => {},
      orphans: (turns) => {
        for (const t of turns) {
          orphaned.push(t.turn_id);
          new ConversationEventLog(b.feed.mirror(t.conversation_id)).closeLeftover(
            t.turn_id,
            'gone',
            'error',
          );
        }
      },
    });
    await leasesA.join('http://127.0.0.1:1');
    await leasesB.join('http://127.0.0.1:2');
    onTestFinished(async () => {
      await leasesA.leave().catch(() => undefined); // its pool is gone: this only stops its heartbeat
      await leasesB.leave();
    });

    expect(await leasesA.claim('agent-1')).toEqual({ mine: true });
    expect(await leasesB.claim('agent-1')).toEqual({ mine: false, url: 'http://127.0.0.1:1' });
    await a.pool.query("INSERT INTO turns VALUES ('conv-1', 't1', 'running', 0)");
    const runner = new ConversationEventLog(a.feed.mirror('conv-1'));
    runner.beginTurn('t1');
    runner.append('started', { turnId: 't1' });
    await a.feed.flushed();

    const reader = collector();
    const sub = await b.feed.subscribe('conv-1', reader.listener, 't1.1');
    expect(sub.replayed).toEqual([]);

    // A dies: its heartbeat stops with its connections.
    await a.feed.close();
    await a.pool.end();
    const ending = await reader.until(3);
    expect(ending.map((e) => `${e.id} ${e.event}`)).toEqual([
      't1~restart.1 error',
      't1~restart.2 done',
      't1~restart.3 done',
    ]);
    expect(ending[1]!.data).toEqual({ turnId: 't1', estado: 'error' });
    expect(orphaned).toEqual(['t1']);
    const state = await b.pool.query("SELECT state FROM turns WHERE turn_id = 't1'");
    expect(state.rows).toEqual([{ state: 'error' }]);
    expect(await leasesB.claim('agent-1')).toEqual({ mine: true });
    sub.close();
  });
});
