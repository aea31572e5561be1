import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { EventFeed } from '../../../../src/service/cluster/event-feed';

/** A pool whose PostgreSQL is gone: every query is refused, as a stopped server's port refuses. */
function unreachablePool(): { pool: pg.Pool; calls: () => number } {
  let calls = 0;
  const pool = {
    query: () => {
      calls += 1;
      return Promise.reject(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      );
    },
  } as unknown as pg.Pool;
  return { pool, calls: () => calls };
}

describe('the event feed closing while PostgreSQL stays down', () => {
  it('stops retrying after its grace, says what was not written, and closes', async () => {
    const { pool, calls } = unreachablePool();
    const lines: string[] = [];
    const feed = new EventFeed(pool, 'postgres://unused', (line) => lines.push(line));
    feed.mirror('c1')({ id: 't1.1', event: 'delta', data: { text: 'hi' } });

    const started = Date.now();
    await feed.close(300);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(lines.some((l) => /closing with 1 events not written/.test(l))).toBe(true);

    // The writer gives up too: no more attempts once closed.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const after = calls();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(calls()).toBe(after);
  });

  it('still writes everything pending when PostgreSQL answers', async () => {
    const written: unknown[] = [];
    const pool = {
      query: (_sql: string, params: unknown[]) => {
        written.push(...(JSON.parse(params[0] as string) as unknown[]));
        return Promise.resolve({ rows: [], rowCount: 0 });
      },
    } as unknown as pg.Pool;
    const feed = new EventFeed(pool, 'postgres://unused', () => {});
    feed.mirror('c1')({ id: 't1.1', event: 'delta', data: { text: 'a' } });
    feed.mirror('c1')({ id: 't1.2', event: 'delta', data: { text: 'b' } });
    await feed.close(300);
    expect(written).toHaveLength(2);
  });
});
