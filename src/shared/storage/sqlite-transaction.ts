import type Database from 'libsql';

type Connection = InstanceType<typeof Database>;

/**
 * Makes `db.transaction(fn)` keep the error that ended a transaction. libsql's own sends ROLLBACK whenever `fn`
 * throws, even when SQLite has rolled the transaction back itself (SQLITE_FULL, an I/O error); that ROLLBACK
 * then throws "cannot rollback - no transaction is active", which hid a full disk as an unknown error (issue
 * 38). This one rolls back only a transaction still open. Nesting is refused by SQLite, as with libsql's.
 */
export function keepTransactionErrors<T extends Connection>(db: T): T {
  db.transaction = ((fn: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      db.exec('BEGIN');
      try {
        const result = fn(...args);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    }) as Connection['transaction'];
  return db;
}
