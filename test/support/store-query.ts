import { engineOf, prepare } from '../../src/service/db/statement';
import type { RunningService } from '../../src/service/index';

/** The first row of `sql` read straight from a running service's store (libsql or PostgreSQL alike). */
export async function storeRow<Row>(
  service: Pick<RunningService, 'context'>,
  sql: string,
  ...params: unknown[]
): Promise<Row> {
  return (await prepare<Row>(service.context.db, sql).get(...params)) as Row;
}

/** How many sign-ins (OAuth token families) the store has ever recorded. */
export async function tokenFamilies(service: Pick<RunningService, 'context'>): Promise<number> {
  return (await storeRow<{ n: number }>(service, 'SELECT COUNT(DISTINCT family_id) AS n FROM oauth_tokens'))
    .n;
}

/** Every row of every table of a running service's store, as one text (to search for what must not be there). */
export async function storeText(service: Pick<RunningService, 'context'>): Promise<string> {
  const { db } = service.context;
  const tables =
    engineOf(db) === 'postgres'
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
      : "SELECT name FROM sqlite_master WHERE type = 'table'";
  const names = (await prepare<{ name: string }>(db, tables).all()).map((row) => row.name);
  const rows = await Promise.all(names.map((name) => prepare(db, `SELECT * FROM "${name}"`).all()));
  return JSON.stringify(rows);
}
