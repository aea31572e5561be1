import Database from 'libsql';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type ServiceDatabase } from '../../../../src/service/db/database';
import { migrations } from '../../../../src/service/db/migrations';
import { engineOf, prepare } from '../../../../src/service/db/statement';
import { freshDatabase } from '../../../support/postgres';

// The store layer itself, on both engines: the same migrations (ids and meaning), the same SQL text, and
// what only a real engine shows (types, case-insensitive e-mails, row order, concurrent starts).

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-store-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const engines: [string, () => Promise<ServiceDatabase>][] = [
  ['the embedded file', async () => openDatabase(await mkdtemp(join(dir, 'file-')))],
  ['PostgreSQL', async () => openDatabase(dir, { databaseUrl: await freshDatabase() })],
];

describe.each(engines)('on %s', (_name, open) => {
  it('applies every migration once, under its id, and reads back what was written', async () => {
    const db = await open();
    try {
      const ids = (
        await prepare<{ id: string }>(db, 'SELECT id FROM schema_migrations ORDER BY id').all()
      ).map((row) => row.id);
      expect(ids).toEqual(migrations.map((step) => step.id));
      const insert = prepare(
        db,
        'INSERT INTO persons (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)',
      );
      // A millisecond time far past 2^31, as every created_at is.
      await insert.run('p1', 'Person@Example.test', 'h', 1_800_000_000_000);
      const row = await prepare<{ id: string; created_at: number }>(
        db,
        'SELECT id, created_at FROM persons WHERE email = ?',
      ).get('person@example.TEST');
      expect(row).toEqual({ id: 'p1', created_at: 1_800_000_000_000 });
      // E-mails are unique whatever their case, as SQLite's NOCASE made them.
      await expect(insert.run('p2', 'PERSON@example.test', 'h', 1)).rejects.toThrow();
    } finally {
      await db.destroy();
    }
  });

  it('keeps insertion order for ties (rowid) and counts changed rows', async () => {
    const db = await open();
    try {
      await prepare(db, 'INSERT INTO persons (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)').run(
        'p',
        'p@example.test',
        '',
        1,
      );
      const add = prepare(
        db,
        'INSERT INTO agents (id, person_id, name, engine, protocol, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const id of ['z', 'a', 'm']) await add.run(id, 'p', id, 'engine-a', 'acp', 5);
      const order = await prepare<{ id: string }>(
        db,
        'SELECT id FROM agents WHERE person_id = ? ORDER BY created_at, rowid',
      ).all('p');
      expect(order.map((row) => row.id)).toEqual(['z', 'a', 'm']);
      const renamed = await prepare(db, 'UPDATE agents SET name = ? WHERE person_id = ?').run('x', 'p');
      expect(renamed.changes).toBe(3);
    } finally {
      await db.destroy();
    }
  });

  it('takes hostile text (NUL, a lone surrogate) in values and lookups without failing', async () => {
    const db = await open();
    try {
      const hostile = 'a\u0000b\ud800c';
      await prepare(db, 'INSERT INTO settings (key, value) VALUES (?, ?)').run('k', hostile);
      const row = await prepare<{ value: string }>(db, 'SELECT value FROM settings WHERE key = ?').get('k');
      expect(row?.value.startsWith('a\ufffdb')).toBe(true);
      expect(row?.value.endsWith('c')).toBe(true);
      expect(await prepare(db, 'SELECT * FROM settings WHERE key = ?').get(hostile)).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });

  it('rolls a failed transaction back whole', async () => {
    const db = await open();
    try {
      const insert = prepare(db, 'INSERT INTO settings (key, value) VALUES (?, ?)');
      await expect(
        db.transaction().execute(async (trx) => {
          await insert.on(trx).run('a', '1');
          await insert.on(trx).run('a', '2');
        }),
      ).rejects.toThrow();
      expect(await prepare(db, 'SELECT * FROM settings').all()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

describe('starting', () => {
  it('two services opening one new PostgreSQL database at once migrate it once', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([
      openDatabase(dir, { databaseUrl: url }),
      openDatabase(dir, { databaseUrl: url }),
    ]);
    try {
      expect(engineOf(a)).toBe('postgres');
      const rows = await prepare<{ id: string }>(a, 'SELECT id FROM schema_migrations').all();
      expect(rows.map((row) => row.id).sort()).toEqual(migrations.map((step) => step.id));
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
    }
  });

  it('an existing data file keeps its rows and gets only the steps it lacks', async () => {
    const data = await mkdtemp(join(dir, 'old-'));
    // A service.db as an earlier version left it: the first two steps, applied with libsql directly.
    const old = new Database(join(data, 'service.db'));
    old.exec('CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
    for (const step of migrations.slice(0, 2)) {
      old.exec(step.sql);
      old.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)').run(step.id, 1);
    }
    old
      .prepare(
        "INSERT INTO persons (id, email, password_hash, created_at) VALUES ('old', 'old@example.test', 'h', 1)",
      )
      .run();
    old.close();
    const db = await openDatabase(data);
    try {
      expect(await prepare(db, 'SELECT id FROM persons').all()).toEqual([{ id: 'old' }]);
      const ids = await prepare<{ id: string; applied_at: number }>(
        db,
        'SELECT id, applied_at FROM schema_migrations ORDER BY id',
      ).all();
      expect(ids.map((row) => row.id)).toEqual(migrations.map((step) => step.id));
      expect(ids.slice(0, 2).map((row) => row.applied_at)).toEqual([1, 1]);
    } finally {
      await db.destroy();
    }
  });

  it('refuses a database setting that is not a postgres:// URL', async () => {
    await expect(openDatabase(dir, { databaseUrl: 'mysql://x@y/z' })).rejects.toThrow(/postgres:\/\//);
  });
});
