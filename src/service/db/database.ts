import Database from 'libsql';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import { join } from 'node:path';
import { makePrivateFilesSync } from '../security/private-files';
import { migrations as allMigrations, type Migration } from './migrations';
import { forPostgres } from './postgres-schema';
import { assertStoreSound } from './store-check';
import { engineOf, splitStatements } from './statement';

/**
 * The service's store: one Kysely instance over the embedded libsql file (`<dataDir>/service.db`, the
 * default) or over PostgreSQL (`database` in config.json, `--database`, or DATABASE_URL). Every store
 * runs the same SQL text on both (./statement.ts); only the schema steps are translated (./postgres-schema.ts).
 */
// The stores write SQL text, not typed builder calls, so the table types are not declared here.
export type ServiceDatabase = Kysely<unknown>;

/** The store a config asks for: `database` (config.json or `--database`), else DATABASE_URL; none: the file. */
export function databaseUrlOf(config: { database?: unknown }): string | undefined {
  const url = typeof config.database === 'string' ? config.database : process.env['DATABASE_URL'];
  return url === '' ? undefined : url;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Opens the store and applies pending migrations: PostgreSQL when `databaseUrl` is a postgres:// URL,
 * else the libsql file in `dataDir` (created if needed, WAL mode).
 */
export async function openDatabase(
  dataDir: string,
  options: { databaseUrl?: string; migrations?: readonly Migration[] } = {},
): Promise<ServiceDatabase> {
  const { databaseUrl, migrations = allMigrations } = options;
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    throw new Error('database must be a postgres:// URL (leave it out for the embedded file)');
  }
  const db = isPostgresUrl(databaseUrl) ? openPostgres(databaseUrl) : openFile(dataDir);
  try {
    await applyMigrations(db, migrations);
  } catch (error) {
    await db.destroy();
    // Which database failed, for the person reading a start that stopped (never its password).
    if (isPostgresUrl(databaseUrl))
      throw new Error(`PostgreSQL at ${whereOf(databaseUrl)}: ${(error as Error).message}`, { cause: error });
    throw error;
  }
  return db;
}

function openFile(dataDir: string): ServiceDatabase {
  const file = join(dataDir, 'service.db');
  // A damaged store is refused, never reset: the person's accounts and conversations are in it.
  assertStoreSound(file);
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  // Password hashes and conversations: the person only, whatever the process umask.
  makePrivateFilesSync([file, `${file}-wal`, `${file}-shm`]);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // The dialect's one connection, behind a mutex: statements and transactions run one at a time.
  return new Kysely<unknown>({ dialect: new SqliteDialect({ database: preparedOnce(database) }) });
}

/** SQL texts kept prepared; the stores use a few dozen fixed texts, so this is a cap, not a working size. */
const PREPARED_TEXTS = 500;

/**
 * The connection as Kysely's dialect uses it, with each SQL text prepared once and reused: the dialect
 * prepares the text of every query it runs, which was the largest part of an authenticated GET's CPU
 * (16 % of the service's time at 1,000 requests a second, docs/benchmarks.md). SQLite prepares a
 * statement again by itself when the schema changed under it.
 */
function preparedOnce(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= PREPARED_TEXTS) statements.delete(statements.keys().next().value as string);
        statement = database.prepare(text) as unknown as SqliteStatement;
        statements.set(text, statement);
      }
      return statement;
    },
    close: () => database.close(),
  };
}

// BIGINT (our millisecond times, counts) and NUMERIC (SUM) arrive as text from pg by default; the stores
// want numbers, as libsql gives them. Millisecond times and token counts stay far below 2^53.
const numberTypes = [pg.types.builtins.INT8, pg.types.builtins.NUMERIC];

/** A database server that takes a connection and never answers fails a start (or a request) after this, not never. */
export const postgresConnectTimeoutMs = 10_000;

/** The host, port and database of a postgres:// URL, without its user or password. */
function whereOf(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.host || parsed.searchParams.get('host') || 'localhost';
    return `${host}${parsed.pathname}`;
  } catch {
    return 'the configured URL';
  }
}

function openPostgres(url: string): ServiceDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: postgresConnectTimeoutMs,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        numberTypes.includes(oid)
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
}

// Any number: it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK = 270_001;

/**
 * Applies, in order and in one transaction, the steps not yet recorded in `schema_migrations`; returns
 * their ids. On PostgreSQL a transaction lock makes a second process starting at once wait, then see them done.
 */
export async function applyMigrations(
  db: ServiceDatabase,
  migrations: readonly Migration[],
): Promise<string[]> {
  const postgres = engineOf(db) === 'postgres';
  return db.transaction().execute(async (trx) => {
    if (postgres) await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(
      trx,
    );
    const done = new Set(
      (await sql<{ id: string }>`SELECT id FROM schema_migrations`.execute(trx)).rows.map((row) => row.id),
    );
    const applied: string[] = [];
    for (const step of migrations) {
      if (done.has(step.id)) continue;
      for (const statement of splitStatements(postgres ? forPostgres(step.sql) : step.sql)) {
        await sql.raw(statement).execute(trx);
      }
      await sql`INSERT INTO schema_migrations (id, applied_at) VALUES (${step.id}, ${Date.now()})`.execute(
        trx,
      );
      applied.push(step.id);
    }
    return applied;
  });
}
