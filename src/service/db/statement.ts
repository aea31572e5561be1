import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import { withoutComments } from './postgres-schema';

/** The store, or one of its transactions. */
export type Executor = Kysely<unknown>;

/**
 * One SQL text with `?` placeholders, compiled by Kysely for the engine at hand (`$1`... on PostgreSQL).
 * The text must be plain SQL both engines read the same way; a `?` inside a literal is not allowed.
 */
export function query<Row>(text: string, params: readonly unknown[]): RawBuilder<Row> {
  const parts = text.split('?');
  if (parts.length !== params.length + 1) {
    throw new Error(`${params.length} values for ${parts.length - 1} placeholders in: ${text}`);
  }
  const strings = Object.assign([...parts], { raw: [...parts] });
  return sql<Row>(strings, ...params);
}

export interface Statement<Row> {
  /** The first row, if any. */
  get(...params: unknown[]): Promise<Row | undefined>;
  all(...params: unknown[]): Promise<Row[]>;
  /** For INSERT, UPDATE and DELETE: how many rows changed. */
  run(...params: unknown[]): Promise<{ changes: number }>;
  /** The same statement inside a transaction. */
  on(trx: Executor): Statement<Row>;
}

/**
 * NUL in text is kept as U+FFFD, as both engines keep a lone surrogate: PostgreSQL's text cannot hold it (the
 * request would fail) and libsql would cut the text there. Hostile text is stored, or matches nothing.
 */
function storable(params: unknown[]): unknown[] {
  return params.map((value) => (typeof value === 'string' ? value.replaceAll('\0', '\uFFFD') : value));
}

/** A reusable statement over `db`, shaped like the synchronous one the stores used before (get/all/run). */
export function prepare<Row = unknown>(db: Executor, text: string): Statement<Row> {
  return {
    async get(...params) {
      return (await query<Row>(text, storable(params)).execute(db)).rows[0];
    },
    async all(...params) {
      return (await query<Row>(text, storable(params)).execute(db)).rows;
    },
    async run(...params) {
      const result = await query<Row>(text, storable(params)).execute(db);
      return { changes: Number(result.numAffectedRows ?? 0) };
    },
    on: (trx) => prepare<Row>(trx, text),
  };
}

/** Builds every statement of `texts` over `db` at once. */
export function prepareAll<T extends Record<string, string>>(
  db: Executor,
  texts: T,
): { [K in keyof T]: Statement<unknown> } {
  return Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, prepare(db, text)])) as {
    [K in keyof T]: Statement<unknown>;
  };
}

/** A schema step's statements, one by one (an embedded driver prepares one statement at a time). */
export function splitStatements(text: string): string[] {
  return withoutComments(text)
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/** Which engine `db` (or one of its transactions) runs on. */
export function engineOf(db: Executor): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Holds row `id` of `table` until the transaction `trx` ends, so a racing transaction that asks for it
 * waits (PostgreSQL, SELECT ... FOR UPDATE). SQLite needs nothing: its one connection runs transactions
 * one at a time.
 */
export async function lockRow(trx: Executor, table: string, id: string): Promise<void> {
  if (engineOf(trx) === 'postgres')
    await query(`SELECT 1 FROM ${table} WHERE id = ? FOR UPDATE`, storable([id])).execute(trx);
}

/** Holds `table` against other writers until the transaction `trx` ends (PostgreSQL; see lockRow). */
export async function lockTable(trx: Executor, table: string): Promise<void> {
  if (engineOf(trx) === 'postgres')
    await sql.raw(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`).execute(trx);
}
