/**
 * The order of an account's deletion for the areas taking part (identity/account-deletion.ts), on a real
 * database (the embedded file, and PostgreSQL in the `service-postgres` pass): `remove` runs while the person's
 * rows are still there, `deleted` once they are gone (an area lets go of what it keeps in memory then, so a
 * request made meanwhile cannot keep it again), and a blocker stops both.
 */
import { describe, expect, it } from 'vitest';
import { prepare } from '../../../../src/service/db/statement';
import { createAccountDeletion } from '../../../../src/service/identity/account-deletion';
import { storeWithPeople } from '../../../support/test-store';

describe('deleting an account, for the areas taking part', () => {
  it('removes while the person is there, says deleted once they are gone, and a blocker stops both', async () => {
    const db = await storeWithPeople(['p1', 'p2']);
    const persons = prepare<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM persons WHERE id = ?');
    const there = async (personId: string) => Number((await persons.get(personId))?.n) === 1;
    const seen: string[] = [];
    // What `deleted` finds: a read it starts (it is synchronous) is issued after whatever ran before it.
    const thereAtDeleted: Promise<boolean>[] = [];
    let blocking = true;
    const account = createAccountDeletion(db);
    account.register({
      name: 'watcher',
      blocker: () => (blocking ? 'A turn is running.' : null),
      remove: async (personId) => void seen.push(`remove ${personId}, there: ${await there(personId)}`),
      deleted: (personId) => {
        seen.push(`deleted ${personId}`);
        thereAtDeleted.push(there(personId));
      },
    });

    expect(await account.deleteAccount('p1')).toEqual({ ok: false, blocker: 'A turn is running.' });
    expect(seen).toEqual([]);
    expect(await there('p1')).toBe(true);

    blocking = false;
    expect(await account.deleteAccount('p1')).toEqual({ ok: true });
    expect(seen).toEqual(['remove p1, there: true', 'deleted p1']);
    expect(await Promise.all(thereAtDeleted)).toEqual([false]);
    expect(await there('p2')).toBe(true);
  });
});
