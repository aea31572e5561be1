/**
 * The provider store with each person's list kept in memory (providers/kept-provider-store.ts), over the real
 * store on a real database (the embedded file, and PostgreSQL in the `service-postgres` pass, where reads and
 * writes run on connections of their own) with a real sealer. Checked: a kept list is what the database held
 * when it was read (a row written beside it, as another process would, is not seen: why a cluster reads
 * afresh); an add or a remove through it is seen at once; reads and writes issued together, in any order,
 * never leave a list kept that the database no longer holds; a failed read is not kept; a deleted account's
 * list is let go.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../../src/service/clock';
import { createTokenSealer } from '../../../../src/service/connectors/token-sealer';
import type { ServiceDatabase } from '../../../../src/service/db/database';
import { prepare } from '../../../../src/service/db/statement';
import { keptProviderStore } from '../../../../src/service/providers/kept-provider-store';
import {
  createProviderStore,
  type ProviderStore,
  type StoredProvider,
} from '../../../../src/service/providers/provider-store';
import { storeWithPeople } from '../../../support/test-store';

async function stores(): Promise<{ db: ServiceDatabase; store: ProviderStore }> {
  const db = await storeWithPeople(['p1', 'p2']);
  return { db, store: createProviderStore(db, systemClock, createTokenSealer(randomBytes(32))) };
}

const provider = (name: string) => ({
  kind: 'openai-compatible' as const,
  name,
  base: `http://127.0.0.1:9/${name}/v1`,
  key: `key-of-${name}`,
});
const names = (list: StoredProvider[]) => list.map((p) => p.name).sort();

describe('a person’s providers kept in memory', () => {
  it('keeps what was read until the person changes it through the kept store', async () => {
    const { store } = await stores();
    const kept = keptProviderStore(store);
    await kept.add('p1', provider('first'));
    expect(names(await kept.list('p1'))).toEqual(['first']);

    // Written beside it, as another process of a cluster would: the kept list does not see it.
    await store.add('p1', provider('beside'));
    expect(names(await kept.list('p1'))).toEqual(['first']);

    // A change through it is seen at once, with what was written beside it.
    const added = await kept.add('p1', provider('second'));
    expect(names(await kept.list('p1'))).toEqual(['beside', 'first', 'second']);
    expect((await kept.list('p1')).find((p) => p.name === 'second')?.key).toBe('key-of-second');
    expect(await kept.remove('p1', added.id)).toBe(true);
    expect(names(await kept.list('p1'))).toEqual(['beside', 'first']);
    expect(await kept.list('p2')).toEqual([]);
  });

  it('never keeps a list the database no longer holds, however reads and writes interleave', async () => {
    const { store } = await stores();
    // Each run: a few adds and removes for two people, with reads among them, each issued after its own
    // short wait (none, a turn of the event loop, or a millisecond or two), so they overlap in every way.
    const operation = fc.record({
      op: fc.constantFrom('list' as const, 'add' as const, 'remove' as const),
      person: fc.constantFrom('p1', 'p2'),
      afterMs: fc.constantFrom(-1, 0, 1, 2),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        const kept = keptProviderStore(store);
        const tag = `r${run++}`;
        for (const person of ['p1', 'p2']) await kept.list(person); // both kept before the storm
        const pending = operations.map(async ({ op, person, afterMs }, i) => {
          if (afterMs >= 0) await sleep(afterMs);
          if (op === 'list') return kept.list(person);
          if (op === 'add') return kept.add(person, provider(`${tag}-${i}`));
          const [last] = (await store.list(person)).slice(-1);
          return last ? kept.remove(person, last.id) : false;
        });
        await Promise.all(pending);
        for (const person of ['p1', 'p2'])
          expect(names(await kept.list(person))).toEqual(names(await store.list(person)));
      }),
      { numRuns: 80 },
    );
  });

  it('does not keep a failed read: the next one asks the database again', async () => {
    const { db, store } = await stores();
    const kept = keptProviderStore(store);
    await store.add('p1', provider('first'));
    await prepare(db, 'ALTER TABLE model_providers RENAME TO model_providers_away').run();
    await expect(kept.list('p1')).rejects.toThrow(/model_providers/);
    await prepare(db, 'ALTER TABLE model_providers_away RENAME TO model_providers').run();
    expect(names(await kept.list('p1'))).toEqual(['first']);
  });

  it('lets go of a person whose account is deleted', async () => {
    const { db, store } = await stores();
    const kept = keptProviderStore(store);
    await kept.add('p1', provider('first'));
    expect(names(await kept.list('p1'))).toEqual(['first']);
    kept.forget('p1');
    await prepare(db, "DELETE FROM persons WHERE id = 'p1'").run();
    expect(await kept.list('p1')).toEqual([]);
  });
});
