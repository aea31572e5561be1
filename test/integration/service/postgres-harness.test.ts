import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '../../support/postgres';

describe('the test PostgreSQL cluster', () => {
  it('hands each caller a fresh, empty, writable database of its own', async () => {
    const [first, second] = await Promise.all([freshDatabase(), freshDatabase()]);
    expect(first).not.toBe(second);
    const a = new pg.Client({ connectionString: first });
    const b = new pg.Client({ connectionString: second });
    await a.connect();
    await b.connect();
    try {
      await a.query('CREATE TABLE notes (body text)');
      await a.query("INSERT INTO notes VALUES ('only here')");
      expect((await a.query('SELECT body FROM notes')).rows).toEqual([{ body: 'only here' }]);
      const tables = await b.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rows).toEqual([]);
      // A real server: LISTEN/NOTIFY crosses connections.
      await b.query('LISTEN ping');
      const heard = new Promise<string | undefined>((resolve) =>
        b.once('notification', (n) => resolve(n.payload)),
      );
      const c = new pg.Client({ connectionString: second });
      await c.connect();
      await c.query("NOTIFY ping, 'hello'");
      await c.end();
      expect(await heard).toBe('hello');
    } finally {
      await a.end();
      await b.end();
    }
  });
});
