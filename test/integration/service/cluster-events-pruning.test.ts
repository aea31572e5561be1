import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ensureClusterTables } from '../../../src/service/cluster/cluster-tables';
import { EventFeed } from '../../../src/service/cluster/event-feed';
import { pruneEvents } from '../../../src/service/cluster/event-pruning';
import { ConversationEventLog } from '../../../src/service/turns/event-log';
import { freshDatabase } from '../../support/postgres';

// cluster_events on a real PostgreSQL, two "processes" (pools and feeds) on one database: pruning keeps each
// conversation's replay window (its last two turns) and whatever a live process's streams have not read.

async function processOn(url: string, id: string) {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  await ensureClusterTables(pool);
  await pool.query(
    `INSERT INTO cluster_processes (id, url, seen_until) VALUES ($1, 'http://127.0.0.1:1', now() + interval '1 hour')`,
    [id],
  );
  const feed = new EventFeed(pool, url, () => {});
  await feed.start();
  onTestFinished(async () => {
    await feed.close();
    await pool.end().catch(() => undefined);
  });
  const prune = (staleMs = 3_600_000) =>
    pruneEvents(pool, { processId: id, readMark: feed.readMark(), staleMs });
  return { pool, feed, prune };
}

/** Logs `count` finished turns t<from>..; returns once they are in the table. */
async function turns(feed: EventFeed, log: ConversationEventLog, from: number, count: number) {
  for (let n = from; n < from + count; n++) {
    log.beginTurn(`t${n}`);
    log.append('started', { turnId: `t${n}` });
    log.endTurn(true, { estado: 'done' });
  }
  await feed.flushed();
}

const turnIds = async (pool: pg.Pool, conversationId: string) =>
  (
    await pool.query<{ turn_id: string }>(
      'SELECT DISTINCT turn_id FROM cluster_events WHERE conversation_id = $1 ORDER BY turn_id',
      [conversationId],
    )
  ).rows.map((row) => row.turn_id);

describe('pruning cluster_events (PostgreSQL)', () => {
  it('drops what is outside the replay window once every process has read it, and a deleted conversation', async () => {
    const url = await freshDatabase();
    const a = await processOn(url, 'a');
    const b = await processOn(url, 'b');
    await a.pool.query('CREATE TABLE conversations (id TEXT PRIMARY KEY)');
    await a.pool.query("INSERT INTO conversations VALUES ('conv-1'), ('conv-2')");
    const runner = new ConversationEventLog(a.feed.mirror('conv-1'));

    // b streams conv-1 and publishes what its stream has read, then falls behind: a's rows after it stay.
    const got: string[] = [];
    const stream = await b.feed.subscribe('conv-1', (event) => got.push(event.id), null);
    await turns(a.feed, runner, 1, 1);
    await expect.poll(() => got.length).toBe(3);
    await b.prune();
    stream.close();
    await turns(a.feed, runner, 2, 3);
    await a.prune();
    expect(await turnIds(a.pool, 'conv-1')).toEqual(['t2', 't3', 't4']);

    // b has nothing left to read: everything outside the window (the last two turns) goes.
    await b.prune();
    await a.prune();
    expect(await turnIds(a.pool, 'conv-1')).toEqual(['t3', 't4']);
    // The window still replays after a Last-Event-ID in it, on either process.
    const resumed = await b.feed.subscribe('conv-1', () => {}, 't3.1');
    expect(resumed.replayed.map((e) => e.id)).toEqual(['t3.2', 't3.3', 't4.1', 't4.2', 't4.3']);
    resumed.close();

    // A deleted conversation's rows go, window and all.
    const other = new ConversationEventLog(a.feed.mirror('conv-2'));
    await turns(a.feed, other, 1, 1);
    expect(await turnIds(a.pool, 'conv-2')).toEqual(['t1']);
    await a.pool.query("DELETE FROM conversations WHERE id = 'conv-2'");
    expect(await a.prune()).toBe(3);
    expect(await turnIds(a.pool, 'conv-2')).toEqual([]);
  });

  it('drops rows outside the window that a stuck process never read, once they are stale', async () => {
    const url = await freshDatabase();
    const a = await processOn(url, 'a');
    const stuck = await processOn(url, 'stuck');
    await a.pool.query('CREATE TABLE conversations (id TEXT PRIMARY KEY)');
    await a.pool.query("INSERT INTO conversations VALUES ('conv-1')");
    const stream = await stuck.feed.subscribe('conv-1', () => {}, null);
    onTestFinished(() => stream.close());
    await stuck.prune(); // its mark: nothing read yet
    const runner = new ConversationEventLog(a.feed.mirror('conv-1'));
    await turns(a.feed, runner, 1, 3);
    await a.prune();
    expect(await turnIds(a.pool, 'conv-1')).toEqual(['t1', 't2', 't3']);
    await a.prune(0);
    expect(await turnIds(a.pool, 'conv-1')).toEqual(['t2', 't3']);
  });
});
